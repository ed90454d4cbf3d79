/** Headings an outline leaves out: bold sizes under its titles' (texinfo's `@subheading`) or the text's (AsciiDoc). */
import { allBold, isHeadingCandidate } from "./headings.js"
import type { OrderedPage } from "./model.js"
import { pageLines } from "./model.js"

// Fewer lines at a size are a title page's or a cover's.
const minLines = 3
const maxChars = 80
/** How much smaller than the body, in points, an unlisted heading size may be. */
const maxShrink = 1.5

/** `levels` with each unlisted bold heading size under the deepest (one under the text's under `titleDepth` too). */
export const unlistedHeadingLevels = (
  pages: ReadonlyArray<OrderedPage>,
  body: number,
  levels: ReadonlyMap<number, number>,
  titleDepth = 0
): Map<number, number> => {
  const result = new Map(levels)
  if (levels.size === 0) return result
  const smallest = Math.min(...levels.keys())
  const deepest = Math.max(...levels.values())
  const bySize = new Map<number, { count: number; headings: boolean }>()
  for (const page of pages) {
    for (const line of pageLines(page)) {
      const under = line.size < body && line.size >= body - maxShrink && line.text.trim().length >= 2
      if (levels.has(line.size) || line.size >= smallest || !(isHeadingCandidate(line, body) || under)) continue
      const entry = bySize.get(line.size) ?? { count: 0, headings: true }
      entry.count++
      entry.headings &&= line.charWidth === undefined && line.text.length <= maxChars &&
        !/[.:;,]$/.test(line.text.trim()) && allBold(line.text, line.marks ?? [])
      bySize.set(line.size, entry)
    }
  }
  const sizes = [...bySize].filter(([, entry]) => entry.headings && entry.count >= minLines).map(([size]) => size)
  sizes.sort((a, b) => b - a).forEach((size, index) =>
    result.set(size, Math.min(6, (size < body ? Math.max(deepest, titleDepth) : deepest) + 1 + index))
  )
  return result
}
