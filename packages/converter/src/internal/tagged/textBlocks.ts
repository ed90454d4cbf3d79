/** What a text element becomes, a heading or a paragraph, and whether its lines read in order. */
import type * as Document from "../../Document.js"
import { Style } from "../../Document.js"
import type { Rich } from "../layout/inline.js"
import type { Line } from "../layout/model.js"

/** A line that starts above the previous one and overlaps it across: not a new column, a jump back. */
export const jumpsBack = (previous: Line, line: Line): boolean =>
  line.y < previous.y - 0.5 * Math.max(previous.size, line.size) && line.x0 < previous.x1 && previous.x0 < line.x1

/** A heading keeps its code spans and references (that it is bold goes without saying). */
export const headingOf = (level: number, rich: Rich): Document.Heading | undefined => {
  if (rich.text === "") return undefined
  const marks = rich.marks.filter((mark) => (mark.style & (Style.code | Style.footnote)) !== 0)
  return { _tag: "Heading", level, text: rich.text, ...(marks.length > 0 ? { marks } : {}) }
}

export const paragraphOf = (rich: Rich): Document.Paragraph | undefined =>
  rich.text === ""
    ? undefined
    : { _tag: "Paragraph", text: rich.text, ...(rich.marks.length > 0 ? { marks: rich.marks } : {}) }
