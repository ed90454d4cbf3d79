/**
 * The text of a glyph name (Adobe Glyph List conventions): the names TeX fonts give ligatures,
 * dashes, quotes and the letters outside ASCII, `uniXXXX` and `uXXXX[XX]`, a letter's own name,
 * `f_i` for a ligature of named parts and `name.suffix` for a variant of `name`.
 */

const named = new Map<string, string>(Object.entries({
  ff: "ff",
  fi: "fi",
  fl: "fl",
  ffi: "ffi",
  ffl: "ffl",
  endash: "–",
  emdash: "—",
  hyphen: "-",
  minus: "−",
  quoteleft: "‘",
  quoteright: "’",
  quotedblleft: "“",
  quotedblright: "”",
  quotesinglbase: "‚",
  quotedblbase: "„",
  quotesingle: "'",
  quotedbl: "\"",
  guilsinglleft: "‹",
  guilsinglright: "›",
  guillemotleft: "«",
  guillemotright: "»",
  guillemetleft: "«",
  guillemetright: "»",
  dotlessi: "ı",
  dotlessj: "ȷ",
  germandbls: "ß",
  ae: "æ",
  AE: "Æ",
  oe: "œ",
  OE: "Œ",
  oslash: "ø",
  Oslash: "Ø",
  lslash: "ł",
  Lslash: "Ł",
  eth: "ð",
  Eth: "Ð",
  thorn: "þ",
  Thorn: "Þ",
  ellipsis: "…",
  bullet: "•",
  dagger: "†",
  daggerdbl: "‡",
  section: "§",
  paragraph: "¶",
  perthousand: "‰",
  copyright: "©",
  registered: "®",
  trademark: "™",
  degree: "°",
  sterling: "£",
  Euro: "€",
  exclamdown: "¡",
  questiondown: "¿",
  visiblespace: "␣",
  // TeX's compound-word mark: an invisible glyph that only stops a ligature.
  compwordmark: "",
  cwm: "",
  grave: "`",
  acute: "´",
  circumflex: "ˆ",
  tilde: "˜",
  dieresis: "¨",
  ring: "˚",
  caron: "ˇ",
  breve: "˘",
  macron: "¯",
  dotaccent: "˙",
  cedilla: "¸",
  ogonek: "˛",
  hungarumlaut: "˝",
  space: " ",
  exclam: "!",
  numbersign: "#",
  dollar: "$",
  percent: "%",
  ampersand: "&",
  parenleft: "(",
  parenright: ")",
  asterisk: "*",
  plus: "+",
  comma: ",",
  period: ".",
  slash: "/",
  colon: ":",
  semicolon: ";",
  less: "<",
  equal: "=",
  greater: ">",
  question: "?",
  at: "@",
  bracketleft: "[",
  backslash: "\\",
  bracketright: "]",
  asciicircum: "^",
  underscore: "_",
  braceleft: "{",
  bar: "|",
  braceright: "}",
  asciitilde: "~",
  zero: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9"
}))

const greek = [
  "Alpha",
  "Beta",
  "Gamma",
  "Delta",
  "Epsilon",
  "Zeta",
  "Eta",
  "Theta",
  "Iota",
  "Kappa",
  "Lambda",
  "Mu",
  "Nu",
  "Xi",
  "Omicron",
  "Pi",
  "Rho",
  "",
  "Sigma",
  "Tau",
  "Upsilon",
  "Phi",
  "Chi",
  "Psi",
  "Omega"
]
greek.forEach((name, i) => {
  if (name === "") return
  named.set(name, String.fromCodePoint(0x391 + i))
  named.set(name.toLowerCase(), String.fromCodePoint(0x3B1 + i))
})

/** A control code: below 32, or from 127 to 159 (where PDFium leaves a code it cannot map). */
export const isControlCode = (code: number): boolean => code < 0x20 || (code >= 0x7F && code < 0xA0)

const letter = /^[A-Za-z]$/
const uni = /^uni((?:[0-9A-F]{4})+)$/
const u = /^u([0-9A-F]{4,6})$/

/** A code point a name may stand for: not a surrogate, not a control character. */
const usable = (code: number): boolean =>
  code <= 0x10FFFF && !(code >= 0xD800 && code <= 0xDFFF) && !isControlCode(code)

const component = (name: string): string | undefined => {
  if (letter.test(name)) return name
  const known = named.get(name)
  if (known !== undefined) return known
  const codes = uni.exec(name)?.[1]?.match(/.{4}/g) ?? u.exec(name)?.slice(1, 2)
  if (codes === undefined) return undefined
  const points = codes.map((hex) => parseInt(hex, 16))
  return points.every(usable) ? String.fromCodePoint(...points) : undefined
}

/** The text a glyph name stands for; `undefined` for a name that tells none (`.notdef`, `a28`, `g31`). */
export const glyphText = (name: string): string | undefined => {
  // A suffix names a variant of the same glyph ("fi.alt", "a.sc").
  const base = name.startsWith(".") ? name : name.split(".")[0]!
  if (base === "" || base.startsWith(".")) return undefined
  const parts = base.split("_").map(component)
  return parts.every((part) => part !== undefined) ? parts.join("") : undefined
}
