import type { PageText, TextItem } from "../../src/internal/layout.js"
import * as Layout from "../../src/internal/layout.js"
import { item } from "./textItems.js"

/** A page of body text with lines at the top (y 30) and the foot (y 780) of an 800-point page. */
export const furniturePage = (
  number: number,
  top: ReadonlyArray<TextItem>,
  bottom: ReadonlyArray<TextItem>
): PageText => ({
  page: number,
  width: 600,
  height: 800,
  items: [
    ...top,
    item(`Body text of page ${number} goes on here in a sentence that is long enough.`, 50, 300),
    item("More of it follows on the next line of the body of this page, and ends.", 50, 312),
    ...bottom
  ],
  figures: []
})

/** The paragraphs and headings (as `# text`) the layout makes of the pages. */
export const bodyText = (pages: ReadonlyArray<PageText>): string =>
  Layout.layoutDocument({ pages: [...pages], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Paragraph" ? [block.text] : block._tag === "Heading" ? [`# ${block.text}`] : []).join("\n")
