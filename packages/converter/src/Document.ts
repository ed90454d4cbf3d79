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
  /** The code spans of the title (absent when it has none). @since 0.1.0 */
  readonly marks?: ReadonlyArray<Mark> | undefined
}

/**
 * Bits of `Mark.style`: code (a fixed-pitch font), strong (a bold one), emphasis (an italic one),
 * and (since 0.2.0) footnote: the stretch is a reference to a footnote, its text the label the
 * page shows ("1", "*"), paired with a `Footnote` block as `Footnote` says. Code is never also
 * strong or emphasis; a footnote reference has no other bit.
 *
 * @since 0.1.0
 * @category models
 */
export const Style = { code: 1, strong: 2, emphasis: 4, footnote: 8 } as const

/**
 * A styled stretch of a text: characters `start` to `end` (exclusive, UTF-16 offsets) in the
 * `Style` bits `style`. Marks of one text are in order and do not overlap.
 *
 * @since 0.1.0
 * @category models
 */
export interface Mark {
  readonly start: number
  readonly end: number
  readonly style: number
}

/**
 * Running text, lines already joined (hyphenation at line ends rejoined); `marks` (absent when
 * there are none) tell its inline code, strong and emphasised stretches.
 *
 * @since 0.1.0
 * @category models
 */
export interface Paragraph {
  readonly _tag: "Paragraph"
  readonly text: string
  readonly marks?: ReadonlyArray<Mark> | undefined
}

/**
 * A list item: its text (wrapped lines joined), its marks, and the lists nested in it.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListItem {
  readonly text: string
  readonly marks?: ReadonlyArray<Mark> | undefined
  readonly lists?: ReadonlyArray<List> | undefined
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
  readonly items: ReadonlyArray<ListItem>
}

/**
 * A code block: lines set in a fixed-pitch font, with their indentation, as printed (never
 * re-wrapped or de-hyphenated); lines separated by "\n".
 *
 * @since 0.1.0
 * @category models
 */
export interface Code {
  readonly _tag: "Code"
  readonly text: string
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
  /** Each cell's marks, row by row as `rows` (absent when no cell has any). @since 0.1.0 */
  readonly marks?: ReadonlyArray<ReadonlyArray<ReadonlyArray<Mark>>> | undefined
}

/**
 * An image of the page: a JPEG as the PDF holds it, or the decoded pixels as PNG.
 *
 * @since 0.1.0
 * @category models
 */
export interface Figure {
  readonly _tag: "Figure"
  /** The image file's bytes, of `mediaType`. */
  readonly data: Uint8Array
  readonly mediaType: "image/png" | "image/jpeg"
  /** Pixels. */
  readonly width: number
  readonly height: number
  /** What the image shows, in words (a tagged PDF's alternative description); absent when unknown. @since 0.2.0 */
  readonly alt?: string | undefined
}

/**
 * A footnote's text, placed after the block that refers to it. References are marks of style
 * `Style.footnote` whose text is the note's `label`; a footnote pairs with the nearest reference
 * of the same label before it that no other footnote took (labels restart by page or chapter in
 * many books). A footnote without a reference is still rendered.
 *
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
export type Block = Heading | Paragraph | List | Code | Table | Figure | Footnote | PageBreak

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
