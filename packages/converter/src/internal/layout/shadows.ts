/** Text drawn twice a little apart (a slide's drop shadow, bold faked by overprinting): one copy is read. */
import type { TextItem } from "./model.js"

/** In font sizes: how far apart two copies of a run may be drawn and still show as one text. */
const shadowOffset = 0.35

/** Letters and digits a run needs to be taken for a copy: lone marks and leader dots repeat close by on their own. */
const minCharacters = 2

const wordCharacter = /[\p{L}\p{N}]/u

/** Whether a text has at least `min` letters and digits (counted a code point at a time, ASCII without a regular expression). */
const hasWordCharacters = (text: string, min: number): boolean => {
  let count = 0
  for (let i = 0; i < text.length && count < min; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) {
      const lower = code | 0x20
      if ((lower >= 0x61 && lower <= 0x7A) || (code >= 0x30 && code <= 0x39)) count++
    } else {
      const point = text.codePointAt(i)!
      if (point > 0xFFFF) i++
      if (wordCharacter.test(String.fromCodePoint(point))) count++
    }
  }
  return count >= min
}

/** One size as the copies' key had it: equal numbers, NaN with NaN (as their strings were). */
const sameSize = (a: number, b: number): boolean => a === b || (a !== a && b !== b)

/**
 * For each run, whether it is read: not when the same text in the same face and size is drawn
 * again later within `shadowOffset` of it, in the same marked content (the copy drawn last, on
 * top, is the one read).
 */
export const unshadowed = (
  items: ReadonlyArray<TextItem>,
  mcids: ReadonlyArray<number> | undefined
): Array<boolean> => {
  const keep = items.map(() => true)
  // Keyed by text alone (no number formatted into a key a run): face and size are compared among its copies.
  const later = new Map<string, Array<number>>()
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!
    const text = item.text.trim()
    if (!hasWordCharacters(text, minCharacters)) continue
    const copies = later.get(text)
    const reach = shadowOffset * item.size
    const covered = copies?.some((j) =>
      items[j]!.style === item.style && sameSize(items[j]!.size, item.size) &&
      Math.abs(items[j]!.x - item.x) <= reach && Math.abs(items[j]!.y - item.y) <= reach &&
      mcids?.[j] === mcids?.[i]
    )
    if (covered === true) keep[i] = false
    else if (copies === undefined) later.set(text, [i])
    else copies.push(i)
  }
  return keep
}
