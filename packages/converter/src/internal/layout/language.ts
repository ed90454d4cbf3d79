/** The document's language, guessed from the script that dominates its letters. */

const kana = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu
const latin = /\p{Script=Latin}/gu
const han = /\p{Script=Han}/gu

const scripts: ReadonlyArray<readonly [RegExp, string]> = [
  [kana, "ja"],
  [/\p{Script=Hangul}/gu, "ko"],
  [han, "zh"],
  [/\p{Script=Arabic}/gu, "ar"],
  [/\p{Script=Hebrew}/gu, "he"],
  [/\p{Script=Greek}/gu, "el"],
  [/\p{Script=Cyrillic}/gu, "ru"],
  [/\p{Script=Thai}/gu, "th"],
  [/\p{Script=Devanagari}/gu, "hi"]
]

/** Characters of the text the guess looks at: enough to tell the scripts apart. */
export const languageSample = 200_000

/** The language of the dominant script; Latin stays "en": telling its languages apart needs more than a count. */
export const detectLanguage = (text: string): string => {
  const sample = text.slice(0, languageSample)
  // ASCII, most of a Latin text, is counted by code; the property tests below see only the rest.
  let asciiLetters = 0
  for (let i = 0; i < sample.length; i++) {
    const lower = sample.charCodeAt(i) | 0x20
    if (lower >= 0x61 && lower <= 0x7A) asciiLetters++
  }
  const rest = sample.replace(/[^\u0080-\uFFFF]+/g, "")
  const letters = asciiLetters + rest.replace(/[^\p{L}]/gu, "").length
  if (letters === 0) return "en"
  // When too few letters are outside ASCII and Latin, no other script can dominate: decided without counts.
  if (rest.replace(latin, "").length < letters * 0.3) return "en"
  const kanaCount = (rest.match(kana) ?? []).length
  const hanCount = (rest.match(han) ?? []).length
  // Japanese mixes kana with kanji: any real share of kana makes Han text Japanese.
  if (kanaCount > 0 && kanaCount + hanCount >= letters * 0.3) return "ja"
  for (const [pattern, language] of scripts) {
    const count = (rest.match(pattern) ?? []).length
    if (count >= letters * 0.3) return language
  }
  return "en"
}
