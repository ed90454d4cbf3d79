/** A notice at one page's foot (a copyright line under the columns), read after the text rather than inside it. */
import type { Line, OrderedPage } from "./model.js"

/**
 * In the page's foot band, smaller print (share of the body size), its gap above at least `minGap` of
 * its sizes and `apart` times the gap above that (rows of a table are not set apart), at most
 * `maxGap` of the page (a title page's foot interrupts nothing); up to `maxLines` lines.
 */
const band = 0.1
const smaller = 0.9
const minGap = 2.5
const apart = 2
const maxGap = 0.2
const maxLeading = 1.5
const maxLines = 3
const sameBaseline = 1.5

/** The page without its foot notice, and the notice's lines (none when it has none). */
export const takeNotice = (
  page: OrderedPage,
  body: number
): { readonly page: OrderedPage; readonly lines: ReadonlyArray<Line> } => {
  const none = { page, lines: [] }
  const lines = page.items.flatMap((item) => item._tag === "Line" ? [item.line] : [])
  const ys = page.items.map((item) =>
    item._tag === "Line" ? item.line.y : item._tag === "Table" || item._tag === "Contents" ? item.y : item.placed.y1
  )
  if (lines.length < 2) return none
  const baselines = [...new Set(ys)].sort((a, b) => b - a)
  const last = baselines[0]!
  if (last < page.height * (1 - band) || !lines.some((line) => Math.abs(line.y - last) < sameBaseline)) return none
  const small = (y: number) => {
    const on = lines.filter((line) => Math.abs(line.y - y) < sameBaseline)
    return on.length > 0 && on.length === ys.filter((other) => Math.abs(other - y) < sameBaseline).length &&
      on.every((line) => line.size <= smaller * body)
  }
  let top = last
  let count = 1
  for (const y of baselines.slice(1)) {
    if (top - y < sameBaseline) continue
    const size = Math.max(...lines.filter((line) => Math.abs(line.y - top) < sameBaseline).map((line) => line.size))
    if (top - y <= maxLeading * size && small(y) && count < maxLines) {
      top = y
      count++
      continue
    }
    const above = baselines.find((other) => other < y - sameBaseline)
    if (
      top - y < minGap * size || top - y > maxGap * page.height || !small(last) ||
      (above !== undefined && top - y < apart * (y - above))
    ) return none
    const notice = lines.filter((line) => line.y >= top - sameBaseline)
    if (!notice.some((line) => /\p{L}.*\p{L}/u.test(line.text))) return none
    const taken = new Set(notice)
    return {
      page: { ...page, items: page.items.filter((item) => item._tag !== "Line" || !taken.has(item.line)) },
      lines: notice
    }
  }
  return none
}
