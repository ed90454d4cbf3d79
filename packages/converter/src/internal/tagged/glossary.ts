/**
 * Glossaries on a tagged page: a word processor tags each row of an acronym list as a paragraph of
 * two runs a tab apart; three or more, aligned, are read as a table of two columns in their place.
 */
import type * as Document from "../../Document.js"
import { markerOnly, segmentGap } from "../layout/lines.js"
import type { Line, TextItem } from "../layout/model.js"
import { Style } from "../layout/model.js"
import { normalizeText } from "../layout/text.js"
import type { Unit } from "./model.js"

/** In font sizes: a glossary's rows (and a description's wrapped lines) are at most this far apart. */
const maxRowGap = 2.6
/** In points: terms start at one x, descriptions at one x, within this. */
const slack = 2
const minRows = 3
const maxLines = 3
const maxTermLength = 32
const maxTermWords = 4
/** A number, letter or numeral alone (a footnote's, a section's, a list item's): no term. */
const numbering = /^[([]?(?:\d+|[a-z]|[ivxlc]+)(?:\.\d+)*[.)\]]?$/iu
/** A term ending so is a sentence's or a clause's start, not a term. */
const closing = /[.,;:!?]$/
/** Page numbers only, or dot leaders: a contents. */
const pageNumber = /^[\divxlc]+$/iu
const leaders = /(?:\.\s?){4}|…/u

/** A glossary's term: up to four words and 32 characters, not code, no list marker, no closing punctuation. */
const isTerm = (term: string, style: number): boolean => {
  const words = term.split(/\s+/u)
  return term !== "" && term.length <= maxTermLength && words.length <= maxTermWords && !closing.test(term) &&
    !markerOnly.test(words[0]!) && !numbering.test(term) && (style & Style.code) === 0
}

/** Whether descriptions so read are a glossary's: not mostly wrapped, not page numbers (a contents). */
const isGlossary = (descriptions: ReadonlyArray<{ readonly description: string; readonly lines: number }>) =>
  descriptions.length >= minRows && descriptions.filter((entry) => entry.lines > 1).length * 2 <= descriptions.length &&
  !descriptions.every((entry) => pageNumber.test(entry.description)) &&
  !descriptions.some((entry) => leaders.test(entry.description))

interface Entry {
  readonly term: string
  readonly description: string
  readonly lines: ReadonlyArray<Line>
  readonly x0: number
  readonly stop: number
  readonly size: number
}

const joined = (texts: ReadonlyArray<string>): string => normalizeText(texts.join(" ")).replace(/\s+/gu, " ").trim()

/** A paragraph of up to three lines whose first is cut once, by a gap wider than a word space, into a term and a description. */
const entryOf = (unit: Unit | undefined, items: ReadonlyArray<TextItem>): Entry | undefined => {
  if (unit?._tag !== "Lines" || unit.lines.length > maxLines) return undefined
  const first = unit.lines[0]!
  const runs = items.filter((run) =>
    Math.abs(run.y - first.y) < 0.3 * first.size && run.x >= first.x0 - 1 && run.x + run.width <= first.x1 + 1 &&
    run.text.trim() !== ""
  ).sort((a, b) => a.x - b.x)
  const cuts = runs.flatMap((run, i) =>
    i > 0 && run.x - (runs[i - 1]!.x + runs[i - 1]!.width) > segmentGap * first.size ? [i] : []
  )
  if (cuts.length !== 1) return undefined
  const cut = cuts[0]!
  const term = joined(runs.slice(0, cut).map((run) => run.text))
  const stop = runs[cut]!.x
  if (!isTerm(term, runs[0]!.style)) return undefined
  if (unit.lines.slice(1).some((line) => Math.abs(line.x0 - stop) > slack)) return undefined
  const description = joined([
    ...runs.slice(cut).map((run) => run.text),
    ...unit.lines.slice(1).map((line) => line.text)
  ])
  return { term, description, lines: unit.lines, x0: runs[0]!.x, stop, size: first.size }
}

/** Whether `next` goes on with `last`'s glossary: its term and description aligned, its baseline close. */
const continues = (last: Entry, next: Entry | undefined): next is Entry =>
  next !== undefined && Math.abs(next.x0 - last.x0) <= slack && Math.abs(next.stop - last.stop) <= slack &&
  next.lines[0]!.y - last.lines[last.lines.length - 1]!.y <= maxRowGap * Math.max(next.size, last.size)

/** Whether the unit before ends with a line at the descriptions' x close above: a hanging paragraph's. */
const hangingAbove = (before: Unit | undefined, entry: Entry): boolean => {
  if (before === undefined || before._tag !== "Lines") return false
  const line = before.lines[before.lines.length - 1]
  return line !== undefined && Math.abs(line.x0 - entry.stop) <= slack &&
    entry.lines[0]!.y - line.y <= maxRowGap * entry.size
}

/** Whether the unit after is a lone term at the terms' x over a line at the descriptions' x: a definition list's. */
const termBelow = (after: Unit | undefined, next: Unit | undefined, entry: Entry): boolean => {
  if (after?._tag !== "Lines") return false
  const term = after.lines[0]!
  const below = after.lines[1] ?? (next?._tag === "Lines" ? next.lines[0] : undefined)
  return below !== undefined && Math.abs(term.x0 - entry.x0) <= slack && term.x1 < entry.stop &&
    Math.abs(below.x0 - entry.stop) <= slack && below.y - term.y <= maxRowGap * term.size
}

/** The page's units with runs of glossary rows (see the module's header) made one table each. */
export const glossaryUnits = (units: ReadonlyArray<Unit>, items: ReadonlyArray<TextItem>): Array<Unit> => {
  const out: Array<Unit> = []
  for (let i = 0; i < units.length;) {
    const head = entryOf(units[i], items)
    const entries = head === undefined || hangingAbove(units[i - 1], head) ? [] : [head]
    for (let j = i + 1; entries.length > 0; j++) {
      const next = entryOf(units[j], items)
      if (!continues(entries[entries.length - 1]!, next)) break
      entries.push(next)
    }
    const end = i + entries.length
    if (
      !isGlossary(entries.map((entry) => ({ description: entry.description, lines: entry.lines.length }))) ||
      termBelow(units[end], units[end + 1], entries[0]!)
    ) {
      out.push(units[i]!)
      i++
      continue
    }
    const table: Document.Table = { _tag: "Table", rows: entries.map((entry) => [entry.term, entry.description]) }
    const lines = entries.flatMap((entry) => entry.lines)
    out.push({ _tag: "Block", make: () => table, lines, item: false, continued: false, continues: false })
    i += entries.length
  }
  return out
}
