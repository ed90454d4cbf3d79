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

/**
 * Guesses the language from the script that dominates the letters; Latin text stays "en" since
 * telling Latin-script languages apart needs more than a script count.
 */
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
  // The scripts counted below are all outside ASCII and Latin: when fewer characters than 30% of
  // the letters are, none can reach its share (the common case, decided without the counts).
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
