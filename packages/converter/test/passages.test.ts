import { assert, describe, it } from "@effect/vitest"
import type { PageText } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item, styledItem } from "./support/textItems.js"

const body = [
  "Plain text that makes up the body of the page, set in",
  "the running size, line after line, as a book would be",
  "set, long enough for the body size to be the one most",
  "lines have, so that the larger print stands out of it."
]

describe("a large-print passage", () => {
  it("too long to be a heading, keeps its code spans and note references as a paragraph", () => {
    const page: PageText = {
      page: 1,
      width: 600,
      height: 800,
      items: [
        item("A passage set larger than the text, that goes on over three of its", 50, 100, 14),
        item("lines as a lead or a long list of authors does, with", 50, 118, 14),
        styledItem("\\savenotes", 380, 118, Style.code, 14),
        item("in the code face and a", 50, 136, 14),
        item("reference raised after it", 210, 136, 14),
        item("2", 386, 130.5, 9),
        item("as well, which stays.", 396, 136, 14),
        ...body.map((text, i) => item(text, 50, 200 + i * 12))
      ],
      figures: []
    }
    const document = Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" })
    const passage = document.blocks.find((block) => block._tag === "Paragraph" && block.text.startsWith("A passage"))
    assert.isDefined(passage)
    if (passage?._tag !== "Paragraph") return
    const marked = (passage.marks ?? []).map((mark) => [passage.text.slice(mark.start, mark.end), mark.style])
    assert.deepStrictEqual(marked, [["\\savenotes", Style.code], ["2", Style.footnote]])
  })
})
