/** Roman numerals as documents number front matter, lists and contents: written the usual way, in one case. */
const numeral = /^(m{0,3})(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/
const digits: Readonly<Record<string, number>> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 }

/** The value of a roman numeral ("iv", "XII"), or `undefined` for anything else ("vv", "mid", "Iv", ""). */
export const romanValue = (text: string): number | undefined => {
  const lower = text.toLowerCase()
  if (text === "" || (text !== lower && text !== text.toUpperCase()) || !numeral.test(lower)) return undefined
  let total = 0
  for (let i = 0; i < lower.length; i++) {
    const value = digits[lower[i]!]!
    total += value < (digits[lower[i + 1] ?? ""] ?? 0) ? -value : value
  }
  return total
}
