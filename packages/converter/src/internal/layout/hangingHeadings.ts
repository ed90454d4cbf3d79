/**
 * A manual page's section heads (`.SH` "NAME", "SYNOPSIS"): bold capitals at the left edge naming a section, over text
 * indented two font sizes or more. A bold term in capitals over its description names no section and stays a term.
 */
import { allBold } from "./headings.js"
import type { Line, OrderedPage } from "./model.js"
import { pageLines } from "./model.js"

/** The sections of a manual page (man-pages(7), BSD's mdoc(7)). */
const sectionName =
  /^(?:NAME|SYNOPSIS|DESCRIPTION|OPTIONS|ARGUMENTS|COMMANDS|USAGE|EXAMPLES?|FILES|ENVIRONMENT|EXIT STATUS|RETURN VALUES?|ERRORS|DIAGNOSTICS|NOTES?|BUGS|CAVEATS|WARNINGS?|RESTRICTIONS|LIMITATIONS|SEE ALSO|AUTHORS?|HISTORY|STANDARDS|CONFORMING TO|COPYRIGHT|LICENSE|REPORTING BUGS|SECURITY|IMPLEMENTATION NOTES)$/u
/** groff sets its heads a point or so under the text's size. */
const maxSmaller = 1.5
const maxLarger = 0.5
/** The text under a head is indented by this many font sizes at least. */
const minIndent = 2
/** ... and starts within this many font sizes under it. */
const maxBelow = 2.5
/** A document's heads come at least twice (one bold line in capitals over a quotation is no head). */
const minHeads = 2

const isSection = (text: string): boolean => sectionName.test(text.trim().replace(/\s+/g, " "))

export const hangingHeadings = (pages: ReadonlyArray<OrderedPage>, body: number): Set<Line> => {
  const found = new Set<Line>()
  for (const page of pages) {
    const lines = pageLines(page)
    if (lines.length === 0) continue
    const margin = Math.min(...lines.map((line) => line.x0))
    lines.forEach((line, i) => {
      const next = lines[i + 1]
      if (next === undefined || !isSection(line.text) || !allBold(line.text, line.marks ?? [])) return
      if (line.size < body - maxSmaller || line.size > body + maxLarger) return
      if (line.x0 > margin + 1 || next.x0 < line.x0 + minIndent * body) return
      if (next.y <= line.y || next.y - line.y > maxBelow * body) return
      found.add(line)
    })
  }
  return found.size >= minHeads ? found : new Set()
}
