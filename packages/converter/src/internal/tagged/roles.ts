/** PDF's standard structure types (ISO 32000 14.8.4): what holds blocks, what is text, what is inline. */

/** Elements that group blocks (and may hold text of their own, read as paragraphs). */
const grouping = new Set([
  "Document",
  "DocumentFragment",
  "Part",
  "Art",
  "Sect",
  "Div",
  "NonStruct",
  "Private",
  "Aside",
  "BlockQuote",
  "TOC",
  "Index",
  "Sub"
])

/** Elements whose nesting gives an `H` its level. */
export const sections = new Set(["Part", "Art", "Sect"])

/** Blocks of running text (a paragraph, unless the lines say code). */
const textBlocks = new Set(["P", "Caption", "TOCI", "BibEntry", "Formula", "Title", "Lbl"])

/** Inline elements: their content goes on in the block they are in. */
const inline = new Set([
  "Span",
  "Quote",
  "Reference",
  "Code",
  "Link",
  "Annot",
  "Ruby",
  "RB",
  "RT",
  "RP",
  "Warichu",
  "WT",
  "WP",
  "Em",
  "Strong",
  "NonStruct",
  "Private",
  "Lbl",
  "BibEntry",
  "Formula",
  "Sub"
])

const others = new Set([
  "H",
  "L",
  "LI",
  "LBody",
  "Table",
  "THead",
  "TBody",
  "TFoot",
  "TR",
  "TH",
  "TD",
  "Figure",
  "Form",
  "Note",
  "FENote",
  "Artifact"
])

/** Whether a role is one of the standard structure types (a custom role the role map left unmapped is not). */
export const isStandard = (role: string): boolean =>
  grouping.has(role) || textBlocks.has(role) || inline.has(role) || others.has(role) || headingLevel(role) !== undefined

/** The level of `H1`..`H6` (deeper `Hn` of PDF 2.0 are 6); undefined for others (`H` is leveled by nesting). */
export const headingLevel = (role: string): number | undefined => {
  const match = /^H([1-9]\d?)$/.exec(role)
  return match === null ? undefined : Math.min(6, Number(match[1]))
}

export const isGrouping = (role: string): boolean => grouping.has(role)
export const isTextBlock = (role: string): boolean => textBlocks.has(role)
export const isInline = (role: string): boolean => inline.has(role)
export const isNote = (role: string): boolean => role === "Note" || role === "FENote"
export const isFigure = (role: string): boolean => role === "Figure" || role === "Form"
export const isTablePart = (role: string): boolean => role === "THead" || role === "TBody" || role === "TFoot"
export const isCell = (role: string): boolean => role === "TD" || role === "TH"

/** ListNumbering values of an ordered list. */
const orderedNumbering = new Set(["Decimal", "UpperRoman", "LowerRoman", "UpperAlpha", "LowerAlpha"])
export const isOrderedNumbering = (numbering: string): boolean => orderedNumbering.has(numbering)
