/**
 * The document model between a PDF and its renderings: pages of text rebuilt into headings,
 * paragraphs, lists, tables and figures, in reading order.
 *
 * @since 0.1.0
 */

/**
 * A section title; `level` 1 is the top (a chapter when the EPUB is split).
 *
 * @since 0.1.0
 * @category models
 */
export interface Heading {
  readonly _tag: "Heading"
  readonly level: number
  readonly text: string
}

/**
 * Running text, lines already joined (hyphenation at line ends rejoined).
 *
 * @since 0.1.0
 * @category models
 */
export interface Paragraph {
  readonly _tag: "Paragraph"
  readonly text: string
}

/**
 * A bulleted or numbered list; the markers are removed from the items.
 *
 * @since 0.1.0
 * @category models
 */
export interface List {
  readonly _tag: "List"
  readonly ordered: boolean
  /** The number of the first item of an ordered list. */
  readonly start: number
  readonly items: ReadonlyArray<string>
}

/**
 * Rows of cells found where text lines up in three or more columns.
 *
 * @since 0.1.0
 * @category models
 */
export interface Table {
  readonly _tag: "Table"
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
}

/**
 * An image of the page, as PNG.
 *
 * @since 0.1.0
 * @category models
 */
export interface Figure {
  readonly _tag: "Figure"
  readonly png: Uint8Array
  readonly width: number
  readonly height: number
}

/**
 * The start of a new PDF page (1-based), so renderers can keep page anchors if they wish.
 *
 * @since 0.1.0
 * @category models
 */
export interface PageBreak {
  readonly _tag: "PageBreak"
  readonly page: number
}

/**
 * @since 0.1.0
 * @category models
 */
export type Block = Heading | Paragraph | List | Table | Figure | PageBreak

/**
 * A whole document: its blocks in reading order, with `PageBreak`s between pages.
 *
 * @since 0.1.0
 * @category models
 */
export interface Document {
  /** From the PDF's metadata, else the caller's filename, else the first heading. */
  readonly title: string
  /** BCP 47 tag guessed from the script of the text ("en" when nothing else stands out). */
  readonly language: string
  readonly blocks: ReadonlyArray<Block>
  readonly pages: number
}
