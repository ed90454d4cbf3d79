/** Text drawn twice a little apart (a slide's drop shadow, bold faked by overprinting): one copy is read. */
import type { TextItem } from "./model.js"

/** In font sizes: how far apart two copies of a run may be drawn and still show as one text. */
const shadowOffset = 0.35

/** Letters and digits a run needs to be taken for a copy: lone marks and leader dots repeat close by on their own. */
const minCharacters = 2

const wordCharacter = /[\p{L}\p{N}]/gu

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
  const later = new Map<string, Array<number>>()
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!
    const text = item.text.trim()
    if ((text.match(wordCharacter)?.length ?? 0) < minCharacters) continue
    const key = `${item.style} ${item.size} ${text}`
    const copies = later.get(key)
    const reach = shadowOffset * item.size
    const covered = copies?.some((j) =>
      Math.abs(items[j]!.x - item.x) <= reach && Math.abs(items[j]!.y - item.y) <= reach &&
      mcids?.[j] === mcids?.[i]
    )
    if (covered === true) keep[i] = false
    else if (copies === undefined) later.set(key, [i])
    else copies.push(i)
  }
  return keep
}
