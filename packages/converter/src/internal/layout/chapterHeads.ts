/** Heads of chapters too short to repeat them: a first baseline apart where other pages' are, led by "CHAPTER 3." or "4". */
import { bodySize } from "./headings.js"
import type { Line, OrderedPage } from "./model.js"

/** "CHAPTER 3.", "Appendix B:", "Part II Syntax", "4 Notes", "3.2 Usage" (not "What I want"). */
const numberedLead =
  /^(?:\p{Lu}\p{L}*(?:\s+\p{L}+)?\s+(?:\d+|[IVXLCDM]+|[A-Z])(?:[.:]|\s+\p{Lu}|\s*$)|\d+(?:\.\d+)*\.?\s+\p{Lu})/u
// The top band; points apart that are one place; sizes a head stands above the text; pages sharing its place.
const band = 0.1
const samePlace = 1.5
const apartGap = 2.5
const minPages = 3

/** The lines of a page's first baseline, in its top band and set apart from everything below. */
const apartTop = (page: OrderedPage): Array<Line> => {
  const lines = page.items.flatMap((item) => item._tag === "Line" ? [item.line] : [])
  if (lines.length < 3) return []
  const ys = page.items.flatMap((item) =>
    item._tag === "Line"
      ? [item.line.y]
      : item._tag === "Table" || item._tag === "Contents"
      ? [item.y]
      : [item.placed.y0, item.placed.y1]
  )
  const top = Math.min(...ys)
  const on = lines.filter((line) => Math.abs(line.y - top) < samePlace)
  if (on.length === 0 || top >= page.height * band) return []
  const size = Math.max(...on.map((line) => line.size))
  const below = ys.filter((y) => y - top >= samePlace)
  return below.length > 0 && Math.min(...below) - top >= apartGap * size ? on : []
}

/** The heads found by place and form on each page, removed with the rest of the furniture. */
export const placedHeads = (pages: ReadonlyArray<OrderedPage>): Set<Line> => {
  const tops = pages.map(apartTop)
  const places = new Map<number, number>()
  for (const lines of tops) {
    if (lines.length === 0) continue
    const at = Math.round(lines[0]!.y / samePlace)
    for (const key of [at - 1, at, at + 1]) places.set(key, (places.get(key) ?? 0) + 1)
  }
  const heads = new Set<Line>()
  if (places.size === 0) return heads
  const body = bodySize(pages)
  for (const lines of tops) {
    if (lines.length === 0 || (places.get(Math.round(lines[0]!.y / samePlace)) ?? 0) < minPages) continue
    if (lines.some((line) => line.size > body + 0.5) || !lines.some((line) => numberedLead.test(line.text))) continue
    for (const line of lines) heads.add(line)
  }
  return heads
}
