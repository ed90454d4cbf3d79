/** Two lines read as one: a number or label set apart from the title after it. */
import type { Line, Mark, OrderedPage, PageItem } from "./model.js"

/** The marks of `lead` (cut to its trimmed text) and of `title` shifted past it and a space. */
export const prefixedMarks = (lead: Line, title: Line): Array<Mark> => {
  const text = lead.text.trim()
  const shift = text.length + 1
  return [
    ...(lead.marks ?? []).flatMap((mark) => {
      const end = Math.min(mark.end, text.length)
      return end > mark.start ? [{ ...mark, end }] : []
    }),
    ...(title.marks ?? []).map((mark) => ({ ...mark, start: mark.start + shift, end: mark.end + shift }))
  ]
}

/** A page with each line that `pairs` with the next one replaced by their `join`. */
export const joinLinePairs = (
  page: OrderedPage,
  pairs: (first: Line, next: Line) => boolean,
  join: (first: Line, next: Line) => Line
): OrderedPage => {
  const items: Array<PageItem> = []
  let changed = false
  for (let i = 0; i < page.items.length; i++) {
    const item = page.items[i]!
    const next = page.items[i + 1]
    if (item._tag === "Line" && next?._tag === "Line" && pairs(item.line, next.line)) {
      items.push({ _tag: "Line", line: join(item.line, next.line) })
      changed = true
      i++
    } else {
      items.push(item)
    }
  }
  return changed ? { ...page, items } : page
}
