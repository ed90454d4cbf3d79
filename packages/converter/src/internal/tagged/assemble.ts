/** A tagged page's units made blocks at the document's sizes: each element's lines read by the layout's rules. */
import type * as Document from "../../Document.js"
import type { PageRules } from "../layout/blocks.js"
import { pageBlocks } from "../layout/blocks.js"
import { CodeBuilder } from "../layout/code.js"
import { isCSource } from "../layout/cSource.js"
import { richLine, trimRich } from "../layout/inline.js"
import { termOf } from "../layout/lineBlocks.js"
import { listMarker } from "../layout/lists.js"
import type { Line, OrderedPage } from "../layout/model.js"
import { withReferences } from "./content.js"
import type { Placed } from "./merge.js"
import type { Unit } from "./model.js"
import type { TaggedPage } from "./page.js"
import { leadHeading } from "./paragraphHeadings.js"

/** A tagged page's lines, then its artifacts, as a layout page: for the document's measures and the running-head rule. */
export const linesPage = (page: TaggedPage): OrderedPage => ({
  page: page.page,
  height: page.height,
  items: [...page.units.flatMap((unit) => unit.lines), ...page.artifacts].map((line) => ({ _tag: "Line", line }))
})

/** A listing's place while its lines are gathered. */
const noCode: Document.Code = { _tag: "Code", text: "" }

/** References bracketed in the lines made marks, in whatever block the rules made. */
const referenced = (block: Document.Block): Document.Block => {
  const marked = (text: string, marks: ReadonlyArray<Document.Mark> | undefined) => {
    const rich = withReferences({ text, marks: marks ?? [] })
    return { text: rich.text, ...(rich.marks.length > 0 ? { marks: rich.marks } : {}) }
  }
  const item = (entry: Document.ListItem): Document.ListItem => ({
    ...entry,
    ...marked(entry.text, entry.marks),
    ...(entry.lists === undefined
      ? {}
      : { lists: entry.lists.map((list) => ({ ...list, items: list.items.map(item) })) })
  })
  switch (block._tag) {
    case "Paragraph":
    case "Heading":
    case "Term":
      return { ...block, ...marked(block.text, block.marks) }
    case "List":
      return { ...block, items: block.items.map(item) }
    case "Code":
      return { ...block, text: block.text.replace(/[\uFDD0\uFDD1]/g, "") }
    default:
      return block
  }
}

/** A definition's terms hold up to this many lines. */
const maxTermLines = 3
/** How far (in font sizes) a description is set in under its terms. */
const termIndent = 1.5

/**
 * Whether code lines are the terms of a definition (a browser's `<dt>` in the code face): up to three
 * lines at one margin, the next unit's lines all set in at least 1.5 em under them (not a paragraph's
 * first-line indent), no list marker leading it.
 */
const areTerms = (lines: ReadonlyArray<Line>, next: Unit | undefined): boolean => {
  const first = lines[0]!
  const description = next?._tag === "Lines" ? next.lines : []
  return lines.length <= maxTermLines && description.length > 0 && description[0]!.charWidth === undefined &&
    lines.every((line) => Math.abs(line.x0 - first.x0) <= 0.5 * line.size) &&
    description.every((line) => line.x0 >= first.x0 + termIndent * first.size) &&
    listMarker(description[0]!.text) === undefined
}

/** The page's blocks: units of lines through the layout's rules; consecutive code units one listing. */
export const taggedBlocks = (
  page: TaggedPage,
  kept: ReadonlySet<Line>,
  rules: PageRules,
  headingSizes: ReadonlyMap<number, number> = new Map()
): Array<Placed> => {
  // The tree says which elements are headings: a paragraph is one only by its size, not its spacing.
  const paragraphRules: PageRules = { ...rules, spaced: new Set(), numbered: new Set(), small: new Map() }
  const placed: Array<Placed> = []
  const listings: Array<{ readonly builder: CodeBuilder; readonly index: number }> = []
  let code: { readonly builder: CodeBuilder; readonly index: number } | undefined
  for (const [index, unit] of page.units.entries()) {
    if (unit._tag === "Block") {
      const block = unit.make(rules.hyphenation)
      if (block !== undefined) placed.push({ ...unit, block })
      code = undefined
      continue
    }
    const lines = unit.lines.filter((line) => kept.has(line))
    if (lines.length === 0) continue
    const allCode = lines.every((line) => line.charWidth !== undefined)
    if (allCode && code === undefined && areTerms(lines, page.units[index + 1])) {
      for (const line of lines) {
        placed.push({ block: termOf(trimRich(richLine(line))), continued: false, continues: false, item: false })
      }
      continue
    }
    if (allCode || isCSource(lines)) {
      for (const [i, line] of lines.entries()) {
        if (code?.builder.add(line) !== true) {
          if (code !== undefined) placed[code.index] = { ...placed[code.index]!, continues: false }
          code = { builder: new CodeBuilder(line), index: placed.length }
          listings.push(code)
          placed.push({ block: noCode, continued: i === 0 && unit.continued, continues: false, item: false })
        }
        placed[code.index] = { ...placed[code.index]!, continues: unit.continues }
      }
      continue
    }
    code = undefined
    const items = lines.map((line) => ({ _tag: "Line" as const, line }))
    const blocks = leadHeading(
      lines,
      pageBlocks({ page: page.page, height: page.height, items }, paragraphRules, []),
      headingSizes,
      rules.body
    ).map(referenced)
    blocks.forEach((block, i) =>
      placed.push({
        block,
        continued: i === 0 && unit.continued,
        continues: i === blocks.length - 1 && unit.continues,
        item: false
      })
    )
  }
  for (const { builder, index } of listings) placed[index] = { ...placed[index]!, block: referenced(builder.build()) }
  return placed
}
