/**
 * The document model between a PDF and its renderings: headings, paragraphs, lists, tables, figures.
 * @since 0.1.0
 */

/**
 * A section title; `level` 1 is the top (a chapter when the EPUB is split).
 * @since 0.1.0
 * @category models
 */
export interface Heading {
  readonly _tag: "Heading"
  readonly level: number
  readonly text: string
  /** The code spans of the title (absent when it has none). @since 0.1.0 */
  readonly marks?: ReadonlyArray<Mark> | undefined
}

/**
 * Bits of `Mark.style`: code, strong, emphasis, and (since 0.2.0) footnote, a reference whose text is
 * the label of a `Footnote`. Code is never also strong or emphasis; a footnote reference has no other bit.
 * @since 0.1.0
 * @category models
 */
export const Style = { code: 1, strong: 2, emphasis: 4, footnote: 8 } as const

/**
 * A styled stretch of a text: UTF-16 offsets `start` to `end` (exclusive); in order, never overlapping.
 * @since 0.1.0
 * @category models
 */
export interface Mark {
  readonly start: number
  readonly end: number
  readonly style: number
}

/**
 * The term of a definition list (texinfo's `@table`, DocBook's variable list), set above or beside its
 * description, which is the block after it (a term with alternative spellings is several `Term`s in
 * a row). Markdown writes it as a bold line of its own, EPUB as `<dt>`.
 * @since 0.2.0
 * @category models
 */
export interface Term {
  readonly _tag: "Term"
  readonly text: string
  readonly marks?: ReadonlyArray<Mark> | undefined
}

/**
 * Running text, lines joined (words cut at line ends rejoined), with its marks.
 * @since 0.1.0
 * @category models
 */
export interface Paragraph {
  readonly _tag: "Paragraph"
  readonly text: string
  readonly marks?: ReadonlyArray<Mark> | undefined
}

/**
 * A list item: its text (wrapped lines joined), its marks, the paragraphs and listings it holds after
 * its text (`blocks`, since 0.2.0), the lists nested in it, and the paragraphs and listings that go on
 * after those lists (`after`, since 0.2.0).
 * @since 0.1.0
 * @category models
 */
export interface ListItem {
  /** A lettered or roman label as printed ("(b)", "iv.", "C."), since 0.2.0; digits are the list's numbers. */
  readonly label?: string | undefined
  readonly text: string
  readonly marks?: ReadonlyArray<Mark> | undefined
  readonly blocks?: ReadonlyArray<Paragraph | Code> | undefined
  readonly lists?: ReadonlyArray<List> | undefined
  /** Text of the item set after its nested lists, at its own indent, since 0.2.0. */
  readonly after?: ReadonlyArray<Paragraph | Code> | undefined
}

/**
 * A bulleted or numbered list; the markers are removed from the items.
 * @since 0.1.0
 * @category models
 */
export interface List {
  readonly _tag: "List"
  readonly ordered: boolean
  /** The number of the first item of an ordered list. */
  readonly start: number
  readonly items: ReadonlyArray<ListItem>
}

/**
 * A code block: fixed-pitch lines as printed, with their indentation, separated by "\n".
 * @since 0.1.0
 * @category models
 */
export interface Code {
  readonly _tag: "Code"
  readonly text: string
}

/**
 * Rows of cells found where text lines up in three or more columns.
 * @since 0.1.0
 * @category models
 */
export interface Table {
  readonly _tag: "Table"
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  /** Each cell's marks, row by row as `rows` (absent when no cell has any). @since 0.1.0 */
  readonly marks?: ReadonlyArray<ReadonlyArray<ReadonlyArray<Mark>>> | undefined
}

/**
 * An image of the page: a JPEG as the PDF holds it, or the decoded pixels as PNG.
 * @since 0.1.0
 * @category models
 */
export interface Figure {
  readonly _tag: "Figure"
  /** The image file's bytes, of `mediaType`. */
  readonly data: Uint8Array
  readonly mediaType: "image/png" | "image/jpeg"
  readonly width: number
  readonly height: number
  /** What the image shows, in words (a tagged PDF's alternative description); absent when unknown. @since 0.2.0 */
  readonly alt?: string | undefined
}

/**
 * A footnote, after the block that refers to it: it pairs with the nearest earlier `Style.footnote`
 * mark of its `label` no other footnote took (labels restart by page or chapter); unpaired, still rendered.
 * @since 0.2.0
 * @category models
 */
export interface Footnote {
  readonly _tag: "Footnote"
  /** The label the page shows at the reference and before the note ("1", "*", "a"). */
  readonly label: string
  readonly text: string
  readonly marks?: ReadonlyArray<Mark> | undefined
}

/**
 * The start of a new PDF page (1-based), so renderers can keep page anchors if they wish.
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
export type Block = Heading | Paragraph | Term | List | Code | Table | Figure | Footnote | PageBreak

/**
 * A whole document: its blocks in reading order, with `PageBreak`s between pages.
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
