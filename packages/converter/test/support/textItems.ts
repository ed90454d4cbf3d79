import type { PageText, TextItem } from "../../src/internal/layout.js"
import * as Layout from "../../src/internal/layout.js"

/** A run of text in the body face whose width follows its length (half an em a character). */
export const item = (text: string, x: number, y: number, size = 10, width = text.length * size * 0.5): TextItem => ({
  text,
  x,
  y,
  width,
  size,
  rtl: false,
  style: 0
})

/** The text of each line of a 600 x 800 page of `items`, in the order the layout reads them. */
export const orderedTexts = (items: ReadonlyArray<TextItem>): Array<string> =>
  Layout.orderPage({ page: 1, width: 600, height: 800, items, figures: [] } satisfies PageText).items.flatMap((
    placed
  ) => placed._tag === "Line" ? [placed.line.text] : [])

/** The paragraphs the layout makes of `texts`, one line each, 12 points apart down a page. */
export const paragraphs = (texts: ReadonlyArray<string>): Array<string> => {
  const page: PageText = {
    page: 1,
    width: 600,
    height: 800,
    items: texts.map((text, i) => item(text, 50, 100 + i * 12)),
    figures: []
  }
  return Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Paragraph" ? [block.text] : [])
}

/** A run in face `style` (bits of `Style`), its width half an em a character. */
export const styledItem = (text: string, x: number, y: number, style = 0, size = 10): TextItem => ({
  ...item(text, x, y, size),
  style
})

/** The blocks the layout makes of a 600 x 800 page of `items`, page breaks left out. */
export const pageBlocks = (items: ReadonlyArray<TextItem>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [] }
  return Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks.filter((
    block
  ) => block._tag !== "PageBreak")
}
