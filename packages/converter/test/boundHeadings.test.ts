import { assert, describe, it } from "@effect/vitest"
import { boundHeadings } from "../src/internal/layout/boundHeadings.js"
import type { Line, OrderedPage } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"

const text = (t: string, y: number): Line => ({ text: t, x0: 134, x1: 477, y, size: 10, rtl: false })
const bold = (t: string, y: number): Line => ({
  ...text(t, y),
  marks: [{ start: 0, end: t.length, style: Style.strong }]
})

const page = (lines: ReadonlyArray<Line>): OrderedPage => ({
  page: 1,
  height: 800,
  items: lines.map((line) => ({ _tag: "Line" as const, line }))
})

const found = (lines: ReadonlyArray<Line>): Array<string> =>
  [...boundHeadings([page(lines)], 10, 1.2)].map((line) => line.text)

describe("bold body-size headings bound to the text below them", () => {
  it("a bold line with more space above than below, and more below than the leading, is a heading", () => {
    // LPPL's subsections: 26 pt above, 18.4 below, a 12 pt leading.
    const lines = [
      text("These authors are addressed as 'you' in this section.", 332.5),
      bold("Choosing This License or Another License", 358.4),
      text("If for any part of your work you want or need to use distribution conditions that", 376.8)
    ]
    assert.deepStrictEqual(found(lines), ["Choosing This License or Another License"])
  })

  it("a bold one-line paragraph with the same space on both sides, or close under its text, is not", () => {
    const paragraph = [
      text("The text of a paragraph ends here.", 300),
      bold("This line is bold for emphasis only", 320),
      text("and the next paragraph starts after it.", 340)
    ]
    assert.deepStrictEqual(found(paragraph), [])
    const close = [text("A line above.", 300), bold("A bold line", 326), text("set close over its text.", 338)]
    assert.deepStrictEqual(found(close), [])
    // A bold term over its bold-led definition is a definition list's, not a heading.
    const term = [text("A line above.", 300), bold("Term", 326), bold("Term's definition in bold.", 344)]
    assert.deepStrictEqual(found(term), [])
  })

  it("a paragraph's indented first line under the title still binds it, at a page's top too (groff -ms)", () => {
    // A troff paper's subsection: 33.2 pt above, 18.3 below, the paragraph indented 25 pt.
    const at = (line: Line, x0: number): Line => ({ ...line, x0 })
    const under = [
      text("Much of the material in this section is taken from [6].", 303),
      bold("Names", 336.2),
      at(text("An extension inspired by Fortran 90 is that long names", 354.5), 159),
      text("are allowed, and names may contain underscores.", 366.5)
    ]
    assert.deepStrictEqual(found(under), ["Names"])
    assert.deepStrictEqual(found(under.slice(1)), ["Names"])
    // Indented at every line, the text is a term's description, not a paragraph under a title.
    const described = [under[0]!, under[1]!, under[2]!, at(under[3]!, 159)]
    assert.deepStrictEqual(found(described), [])
    assert.deepStrictEqual(found(described.slice(1)), [])
  })
})
