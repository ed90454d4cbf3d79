/** The shapes the layout rules pass along: positioned text, lines rebuilt from it, pages in reading order. */
import type * as Document from "../../Document.js"
import type { Mark } from "../../Document.js"

/** Font styles of a run and of marks, as bits: fixed pitch (code), bold (strong), italic (emphasis). */
export { Style } from "../../Document.js"

/** One run of text as the PDF places it; `y` is the baseline from the page top. */
export interface TextItem {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly size: number
  readonly rtl: boolean
  /** `Style` bits of the run's font (0: plain). */
  readonly style: number
}

export type { Mark } from "../../Document.js"

/** An area of a page, in top-down coordinates (points). */
export interface Box {
  readonly x0: number
  readonly x1: number
  readonly y0: number
  readonly y1: number
}

/** An image placed on the page. */
export interface PlacedFigure extends Box {
  readonly figure: Document.Figure
}

/** A thin horizontal or vertical path of the page (a table's rule). */
export interface Rule extends Box {
  readonly horizontal: boolean
}

export interface PageText {
  readonly page: number
  readonly width: number
  readonly height: number
  readonly items: ReadonlyArray<TextItem>
  readonly figures: ReadonlyArray<PlacedFigure>
  /** Its rules (absent: none read). */
  readonly rules?: ReadonlyArray<Rule> | undefined
  /** Its shaded boxes and frames (absent: none read). */
  readonly panels?: ReadonlyArray<Box> | undefined
  /** The page before ended in a contents, which this page's top may go on with (`contents`). */
  readonly contentsGoesOn?: boolean | undefined
}

/** A bookmark resolved to its page (1-based) and, when the destination says, its top. */
export interface OutlineEntry {
  readonly title: string
  readonly level: number
  readonly page: number
  readonly top: number | undefined
}

/**
 * A run of text on one baseline without large gaps. `charWidth`, set when the whole line is fixed-pitch
 * (or a listing's line in a text face: an average character), turns horizontal offsets back into spaces.
 */
export interface Line {
  readonly text: string
  readonly x0: number
  readonly x1: number
  readonly y: number
  readonly size: number
  readonly rtl: boolean
  readonly marks?: ReadonlyArray<Mark> | undefined
  readonly charWidth?: number | undefined
}

/** Lines in reading order, with tables and figures placed among them. */
export type PageItem =
  | { readonly _tag: "Line"; readonly line: Line }
  | {
    readonly _tag: "Table"
    readonly rows: ReadonlyArray<ReadonlyArray<string>>
    readonly marks?: ReadonlyArray<ReadonlyArray<ReadonlyArray<Mark>>> | undefined
    readonly y: number
  }
  | { readonly _tag: "Figure"; readonly placed: PlacedFigure }
  /** A contents page's entries (`contents`). */
  | {
    readonly _tag: "Contents"
    readonly list: Document.List
    /** Its lines as read, which the document's measures (body size, spacing, heading sizes) still count. */
    readonly lines: ReadonlyArray<Line>
    readonly y: number
  }

/** A rule a footnote separator may be: `long` across the column, as the rule over a note going on from the page before. */
export interface Separator extends Rule {
  readonly long: boolean
}

export interface OrderedPage {
  readonly page: number
  readonly height: number
  readonly items: ReadonlyArray<PageItem>
  /** Its horizontal rules where a footnote separator may be (`footnotes`). */
  readonly separators?: ReadonlyArray<Separator> | undefined
  /** Its shaded boxes and frames, where a listing in a text face is read whole (`panelCode`). */
  readonly panels?: ReadonlyArray<Box> | undefined
  /** The lines of its side bar (`sideBar`), read after the body. */
  readonly bar?: ReadonlyArray<Line> | undefined
  /** It ends in a contents, which the next page's top may go on with (`contents`). */
  readonly contentsOpen?: boolean | undefined
}

/** The lines of a page, in reading order, without its tables and figures. */
export const pageLines = (page: OrderedPage): Array<Line> =>
  page.items.flatMap((item) => item._tag === "Line" ? [item.line] : [])
