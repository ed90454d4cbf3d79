/** The document's language, guessed from the script that dominates its letters. */

const kana = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu
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
  const letters = sample.replace(/[^\p{L}]/gu, "").length
  if (letters === 0) return "en"
  const kanaCount = (sample.match(kana) ?? []).length
  const hanCount = (sample.match(han) ?? []).length
  // Japanese mixes kana with kanji: any real share of kana makes Han text Japanese.
  if (kanaCount > 0 && kanaCount + hanCount >= letters * 0.3) return "ja"
  for (const [pattern, language] of scripts) {
    const count = (sample.match(pattern) ?? []).length
    if (count >= letters * 0.3) return language
  }
  return "en"
}
