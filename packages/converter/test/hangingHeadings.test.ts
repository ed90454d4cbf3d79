import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item, styledItem } from "./support/textItems.js"

const headings = (items: ReadonlyArray<TextItem>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [] }
  return Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Heading" ? [block.text] : [])
}

/** A head in bold, a point under the text's size (groff's `.SH`). */
const bold = (text: string, x: number, y: number) => styledItem(text, x, y, 2, 9)

/** Two indented lines of a section's text under `y`. */
const text = (y: number): Array<TextItem> => [
  item("converts source code in files with names ending in a suffix to other files,", 90, y),
  item("with the suffix substituted for the final one in the current directory.", 90, y + 12)
]

describe("section heads set out in the margin over indented text", () => {
  it("are headings: a bold line in capitals at the left edge, the text under it indented", () => {
    const found = headings([
      bold("NAME", 50, 100),
      item("f2c - Convert Fortran 77 to C or C++", 90, 112),
      bold("DESCRIPTION", 50, 136),
      ...text(148),
      bold("SEE ALSO", 50, 184),
      ...text(196)
    ])
    assert.deepStrictEqual(found, ["NAME", "DESCRIPTION", "SEE ALSO"])
  })

  it("are not bold terms in capitals at the text's indent, nor a lone bold line", () => {
    const terms = headings([
      ...text(88),
      bold("TMPDIR", 90, 124),
      item("the directory where temporary files are made, when it is set.", 130, 136),
      bold("HOME", 90, 160),
      item("the directory searched for the configuration file first.", 130, 172)
    ])
    assert.deepStrictEqual(terms, [])
    const lone = headings([bold("WARNING", 50, 100), ...text(112), item("Text at the margin again.", 50, 150)])
    assert.deepStrictEqual(lone, [])
  })
})
