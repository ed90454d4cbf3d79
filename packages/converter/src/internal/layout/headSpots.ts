/** Running heads naming each section in turn, found by the spot where the document's other heads stand. */
import type { Line, OrderedPage } from "./model.js"

/** Baselines this close (points) are one spot; edges this close too. */
const sameY = 1.5
const sameEdge = 2
/** Heads found at one spot on this many pages make it a head's spot. */
const minPages = 3
/** A head stands this many of its sizes from the page's other baselines, at least. */
const apartGap = 2

const words = /\p{L}.*\p{L}/u

/** A line's spots: its baseline, size and right edge or centre (a left edge is the body's too). */
const ownKeys = (line: Line, dy = 0, dx = 0): Array<string> => {
  const at = `${Math.round(line.y / sameY) + dy}:${Math.round(line.size * 2)}`
  return [
    `${at}:r${Math.round(line.x1 / sameEdge) + dx}`,
    `${at}:c${Math.round((line.x0 + line.x1) / 2 / sameEdge) + dx}`
  ]
}

const nearKeys = (line: Line): Array<string> => [0, 1].flatMap((dy) => [0, 1].flatMap((dx) => ownKeys(line, dy, dx)))

/**
 * Adds to each page's furniture its band lines, set apart, at the spot of heads found on 3 pages or more (a Word header
 * naming its section). Left-aligned heads are not followed: a title on two pages there may be the body's.
 */
export const addHeadSpots = (
  pages: ReadonlyArray<OrderedPage>,
  furniture: ReadonlyArray<Set<Line>>,
  inBand: (line: Line, height: number) => boolean
): void => {
  const spots = new Map<string, number>()
  for (const found of furniture) {
    const seen = new Set<string>()
    for (const line of found) if (words.test(line.text)) { for (const key of nearKeys(line)) seen.add(key) }
    for (const key of seen) spots.set(key, (spots.get(key) ?? 0) + 1)
  }
  const isHeadSpot = (key: string): boolean => (spots.get(key) ?? 0) >= minPages
  pages.forEach((page, p) => {
    const ys = page.items.flatMap((item) =>
      item._tag === "Line"
        ? [item.line.y]
        : item._tag === "Figure"
        ? [item.placed.y0, item.placed.y1]
        : [item.y]
    )
    // A head stands apart; a justified line of the body, whose right edge is the heads', does not.
    const apart = (line: Line): boolean =>
      ys.every((y) => Math.abs(y - line.y) < sameY || Math.abs(y - line.y) >= apartGap * line.size)
    for (const item of page.items) {
      if (item._tag !== "Line" || furniture[p]!.has(item.line) || !inBand(item.line, page.height)) continue
      if (!words.test(item.line.text) || !apart(item.line)) continue
      if (ownKeys(item.line).some(isHeadSpot)) furniture[p]!.add(item.line)
    }
  })
}
