/**
 * Notes at the foot of a page or column (below a short rule or a gap, each starting with the label
 * a reference in the body shows) leave the body, so that a sentence going on past them reads whole.
 */
import { gluedReferences, markGlued } from "./gluedNotes.js"
import { lowerPart, withLabelsJoined } from "./joinedLabels.js"
import { listMarker } from "./lists.js"
import type { Line, Mark, OrderedPage, PageItem, Rule, Separator } from "./model.js"
import { Style } from "./model.js"
import { follows, hasWords } from "./noteShape.js"
import { raisedLetter } from "./raisedLabels.js"

/** A separator is at least this long (points) and at most this share of the page wide. */
const minRuleLength = 30
const maxRuleShare = 0.5
/** Without a rule, this many body sizes of space stand between the body and smaller notes. */
const minGap = 1.6
/** Lines below the notes in this share of the page are its furniture (a folio), not the body. */
const bottomBand = 0.15
/** A note's next line stands at most this many of its sizes below the one before; the next note, farther. */
const maxLeading = 2.2
const maxNoteGap = 3.5
/** A note's next line starts at most this many body sizes left of its first (a first line indented as a paragraph's). */
const maxOutdent = 3

/** A note's label at a line start, then its text: "1 As of", "*Work done", LibreOffice's "6Archaic". */
const leadingLabel =
  /^([\p{Nd}\u00B9\u00B2\u00B3\u2070\u2074-\u2079]{1,3}|[*\u2217\u2020\u2021\u00A7\u00B6\u2016]{1,3})(?:\s+|(?=[^\s\p{Nd}\u00B9\u00B2\u00B3\u2070\u2074-\u2079.,:;)\]]))(?=\S)/u

/** A label on the line followed by a full stop ("14. NFSS", as babel's French notes set it): a note only where the body refers to it. */
const dottedLabel = /^(\p{Nd}{1,3})\.\s+(?=\S)/u

/** A note of a page: its label (undefined: the previous page's last note going on) and lines. */
export interface Note {
  readonly label: string | undefined
  readonly lines: ReadonlyArray<Line>
  /** The characters of its first line before its text (its label). */
  readonly cut: number
}

/** A page without its notes, and the notes. */
export interface PageNotes {
  readonly page: OrderedPage
  readonly notes: ReadonlyArray<Note>
}

/** The horizontal rules a footnote separator may be: short ones, and long ones over a note going on. */
export const separatorRules = (rules: ReadonlyArray<Rule>, width: number): Array<Separator> =>
  rules.flatMap((rule) =>
    rule.horizontal && rule.x1 - rule.x0 >= minRuleLength
      ? [{ ...rule, long: rule.x1 - rule.x0 > width * maxRuleShare }]
      : []
  )

/** A line's leading label: where its text starts, and whether the label is raised (a reference mark). */
interface Marker {
  readonly label: string
  readonly cut: number
  readonly raised: boolean
  readonly dotted?: boolean
}

/** The label a note line starts with, raised or set on the line. */
export const noteMarker = (line: Line): Marker | undefined => {
  const first = line.marks?.[0]
  if (first !== undefined && first.start === 0 && first.style === Style.footnote) {
    const rest = line.text.slice(first.end)
    if (rest.trim() === "") return undefined
    return {
      label: line.text.slice(0, first.end).trim(),
      cut: line.text.length - rest.trimStart().length,
      raised: true
    }
  }
  const found = leadingLabel.exec(line.text)
  if (found !== null) return { label: found[1]!, cut: found[0].length, raised: false }
  const dotted = dottedLabel.exec(line.text)
  return dotted === null ? undefined : { label: dotted[1]!, cut: dotted[0].length, raised: false, dotted: true }
}

/** The labels of a line's references (raised labels after its start). */
const referenceLabels = (line: Line): Array<string> =>
  (line.marks ?? []).flatMap((mark) =>
    mark.style === Style.footnote && mark.start > 0 ? [line.text.slice(mark.start, mark.end).trim()] : []
  )

/** The labels of a table's references (a raised label in a cell, a header's "Notes¹"). */
const tableReferences = (table: Extract<PageItem, { _tag: "Table" }>): Array<string> =>
  (table.marks ?? []).flatMap((row, r) =>
    row.flatMap((cell, c) =>
      cell.flatMap((mark) =>
        mark.style === Style.footnote ? [(table.rows[r]?.[c] ?? "").slice(mark.start, mark.end).trim()] : []
      )
    )
  )

/** Where a line starts, mirrored on a right-to-left line (its right end, negated), so that larger is further in. */
const lead = (line: Line): number => line.rtl ? -line.x1 : line.x0
const ruleStart = (rule: Rule, rtl: boolean): number => rtl ? -rule.x1 : rule.x0
const ruleEnd = (rule: Rule, rtl: boolean): number => rtl ? -rule.x0 : rule.x1

/**
 * The separator between `above` (when there is one) and a note's first line, starting near it; with
 * `setIn`, over its start (a note going on may go on with an example set in from its margin).
 */
const separatorAbove = (
  rules: ReadonlyArray<Rule>,
  line: Line,
  above: Line | undefined,
  body: number,
  setIn = false
): boolean =>
  rules.some((rule) =>
    rule.y0 < line.y - 0.6 * line.size && line.y - rule.y0 <= 3 * Math.max(line.size, body) &&
    (above === undefined || rule.y0 > above.y) &&
    ruleStart(rule, line.rtl) <= lead(line) + 0.5 * line.size &&
    (ruleStart(rule, line.rtl) >= Math.min(lead(line), above === undefined ? lead(line) : lead(above)) - 2 * body ||
      setIn && ruleEnd(rule, line.rtl) > lead(line))
  )

/**
 * The page without the notes at its columns' feet: a foot block, low on the page and no larger than
 * the body, starts below a short rule or (set smaller) a gap, with a label the body refers to, and
 * runs to its column's end; unlabelled below a rule, it is the page before's last note going on.
 */
export const footNotes = (page: OrderedPage, body: number, continuing: boolean): PageNotes => {
  const items = withLabelsJoined(page, body)
  const all = page.separators ?? []
  const referred = new Set<string>()
  const taken = new Set<number>()
  const notes: Array<Note> = []
  let above: Line | undefined
  let blockAbove = false
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!
    if (item._tag !== "Line") {
      if (item._tag === "Table") { for (const label of tableReferences(item)) referred.add(label) }
      above = undefined
      blockAbove = true
      continue
    }
    const line = item.line
    const previous = above !== undefined && above.y < line.y ? above : undefined
    const afterBlock = blockAbove
    above = line
    blockAbove = false
    // A note set in a fixed-pitch face (a URL) is one only right below a separator.
    const fixed = line.charWidth !== undefined &&
      !separatorAbove(all.filter((rule) => !rule.long), line, previous, body)
    // A line beside another on its baseline (a framed example's two halves) is no note going on.
    const alone = !besideOn(line, items[i - 1]) && !besideOn(line, items[i + 1])
    const start = line.size <= body + 0.5 && line.y >= page.height * lowerPart && !fixed
      ? footStart(line, previous, afterBlock, all, body, referred, continuing && notes.length === 0 && alone)
      : undefined
    const found = start === undefined ? undefined : footBlock(items, i, start, referred, all, body, page.height)
    const block = found?.notes.every(hasWords) === true ? found : undefined
    if (block === undefined) {
      for (const label of referenceLabels(line)) referred.add(label)
      for (const glued of gluedReferences(line, i)) referred.add(glued.label)
      continue
    }
    notes.push(...block.notes)
    for (let k = i; k <= block.end; k++) if (!block.kept.has(k)) taken.add(k)
    i = block.end
    above = undefined
  }
  if (notes.length === 0) {
    return { page: keepingReferences(page, page.items, (label) => !raisedLetter.test(label)), notes }
  }
  const labels = new Map<string, number>()
  for (const note of notes) if (note.label !== undefined) labels.set(note.label, (labels.get(note.label) ?? 0) + 1)
  return { page: withReferences(page, markGlued(items.filter((_, i) => !taken.has(i)), labels), labels), notes }
}

/** Whether a line's last characters are in a fixed-pitch face. */
const endsInCode = (line: Line): boolean => {
  const end = line.text.trimEnd().length
  return (line.marks ?? []).some((mark) => (mark.style & Style.code) !== 0 && mark.start < end && mark.end >= end)
}

/** Whether `item` is a line on the baseline of `line`. */
const besideOn = (line: Line, item: PageItem | undefined): boolean =>
  item?._tag === "Line" && item.line !== line && Math.abs(item.line.y - line.y) <= 0.3 * line.size

/** How a foot block starts at `line`: a note's label, or none (a note going on from the page before). */
const footStart = (
  line: Line,
  previous: Line | undefined,
  afterBlock: boolean,
  rules: ReadonlyArray<Separator>,
  body: number,
  referred: ReadonlySet<string>,
  continuing: boolean
): { readonly label: string | undefined; readonly cut: number } | undefined => {
  const smaller = line.size <= body - 0.75
  const marker = noteMarker(line)
  // Word and LaTeX set a note going on from the page before under a rule across the column.
  if (marker === undefined) {
    return smaller && continuing && separatorAbove(rules, line, previous, body, true)
      ? { label: undefined, cut: 0 }
      : undefined
  }
  // A numbered list item looks the same: only a reference met in the body makes it a note.
  if (marker.dotted === true && !referred.has(marker.label)) return undefined
  const ruled = separatorAbove(rules.filter((rule) => !rule.long), line, previous, body)
  if (ruled) return marker.raised || smaller || referred.has(marker.label) ? marker : undefined
  // A table or a figure just above ends the body as a gap does.
  const spaced = afterBlock || (previous !== undefined && line.y - previous.y >= minGap * body)
  // A label raised as its reference is marks a note however large its text (LibreOffice sets notes in about the body's size).
  return (smaller || marker.raised) && spaced && referred.has(marker.label) ? marker : undefined
}

/**
 * The notes of the foot block at `start` and its last line's index, when its lines, close below one
 * another, run to the column's end (a figure, a line higher up, a rule (a float's frame below the
 * notes too), the bottom band); else undefined.
 */
const footBlock = (
  items: ReadonlyArray<PageItem>,
  start: number,
  head: { readonly label: string | undefined; readonly cut: number },
  referred: ReadonlySet<string>,
  rules: ReadonlyArray<Rule>,
  body: number,
  height: number
): { readonly notes: Array<Note>; readonly end: number; readonly kept: ReadonlySet<number> } | undefined => {
  const first = (items[start] as Extract<PageItem, { _tag: "Line" }>).line
  let note: { label: string | undefined; lines: Array<Line>; cut: number } = {
    label: head.label,
    lines: [first],
    cut: head.cut
  }
  const notes: Array<Note> = [note]
  const kept = new Set<number>()
  let bullet: Line | undefined
  let last = first
  // The block's margin: its leftmost line yet (a note going on may start with an example set in).
  let left = lead(first)
  let end = start
  for (; end + 1 < items.length; end++) {
    const item = items[end + 1]!
    if (item._tag !== "Line") return { notes, end, kept }
    const next = item.line
    const marker = noteMarker(next)
    const starts = marker !== undefined &&
      (marker.raised || referred.has(marker.label) || follows(note.label, marker.label))
    const aligned = starts && Math.abs(lead(next) - lead(note.lines[0]!)) <= 1 &&
      Math.abs(next.size - last.size) <= 0.25
    // A blank line inside a note (an example's, a paragraph's) stands between lines at one indent, above the folio's band.
    const blank = !starts && Math.abs(lead(next) - lead(last)) <= 1 && Math.abs(next.size - last.size) <= 0.25 &&
      next.y < height * (1 - bottomBand)
    const leading = (aligned || blank ? maxNoteGap : maxLeading) * Math.max(next.size, last.size)
    // A note of the other direction starts at its own margin; a line's other-direction piece sits beside it.
    const head = next.rtl === first.rtl ? first : note.lines[0]!
    const margin = next.rtl !== head.rtl
      ? starts
      : lead(next) >= (head === first ? left : lead(head)) - maxOutdent * body
    const beside = !starts && Math.abs(next.y - last.y) <= 0.3 * last.size && (next.x1 <= last.x0 || next.x0 >= last.x1)
    // A fixed-pitch line no larger than the note after a line ending in that face (a URL going on) is its text.
    const prose = next.charWidth === undefined ||
      !starts && next.size <= note.lines[0]!.size + 0.25 && endsInCode(last)
    const close = prose && (beside || next.y > last.y && next.y - last.y <= leading) &&
      next.size <= first.size + 1 && (beside || margin)
    if (!close) {
      const ruled = rules.some((rule) => rule.y0 > last.y && rule.y0 < next.y - 0.6 * next.size)
      return next.y < first.y || ruled || belowAll(items, end + 1, height) ? { notes, end, kept } : undefined
    }
    if (starts) {
      note = { label: marker.label, lines: [next], cut: marker.cut }
      notes.push(note)
      bullet = undefined
    } else if (listMarker(next.text)?.ordered === false || (bullet !== undefined && lead(next) > lead(bullet))) {
      // A list inside a note stays a list, in the body after the page's text.
      bullet ??= next
      kept.add(end + 1)
    } else note.lines.push(next)
    if (next.rtl === first.rtl) left = Math.min(left, lead(next))
    last = next
  }
  return { notes, end, kept }
}

/** Whether the lines from `from` to the column's end are all in the page's bottom band (a folio the furniture rule left). */
const belowAll = (items: ReadonlyArray<PageItem>, from: number, height: number): boolean => {
  const top = (items[from] as Extract<PageItem, { _tag: "Line" }>).line.y
  for (let k = from; k < items.length; k++) {
    const item = items[k]!
    if (item._tag !== "Line" || item.line.y < top) return true
    if (item.line.y < height * (1 - bottomBand)) return false
  }
  return true
}

/** A note symbol's label (not a figure, which an exponent may be). */
const symbolLabel = /^[*\u2217\u2020\u2021\u00A7\u00B6\u2016]+$/u

/** A raised label glued to the word after it ("x2bar") is an exponent rather than a reference (CJK text aside). */
const beforeWord = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}]/u

/**
 * The items with, per label of the page's notes, only its first references kept: a later raised label
 * is an exponent, and so is one glued to the word after it while another stands free. Labels without
 * a note here stay references (endnotes may answer them).
 */
const withReferences = (
  page: OrderedPage,
  items: ReadonlyArray<PageItem>,
  labels: ReadonlyMap<string, number>
): OrderedPage => {
  const texts = items.flatMap((item) =>
    item._tag === "Line"
      ? [{ text: item.line.text, marks: item.line.marks ?? [] }]
      : item._tag === "Table"
      ? (item.marks ?? []).flatMap((row, r) => row.map((cell, c) => ({ text: item.rows[r]?.[c] ?? "", marks: cell })))
      : []
  )
  const candidates = new Map<string, Array<{ readonly mark: Mark; readonly glued: boolean; readonly text: number }>>()
  texts.forEach(({ marks, text }, index) => {
    for (const mark of marks) {
      const label = mark.style === Style.footnote ? text.slice(mark.start, mark.end).trim() : ""
      if (!labels.has(label)) continue
      const list = candidates.get(label) ?? []
      list.push({ mark, glued: beforeWord.test(text.slice(mark.end)), text: index })
      candidates.set(label, list)
    }
  })
  const kept = new Set<Mark>()
  for (const [label, list] of candidates) {
    const free = list.filter((candidate) => !candidate.glued)
    const chosen = [...free, ...list.filter((candidate) => candidate.glued)].slice(0, labels.get(label))
    // A symbol is no exponent: its other free references on a chosen one's line share its note ("Kleb‡ and Wood‡").
    const lines = new Set(symbolLabel.test(label) ? chosen.map((candidate) => candidate.text) : [])
    for (const candidate of list) {
      if (chosen.includes(candidate) || !candidate.glued && lines.has(candidate.text)) kept.add(candidate.mark)
    }
  }
  // A raised letter is an exponent unless a note of its page has it for label (a table's "Curveᵃ").
  return keepingReferences(
    page,
    items,
    (label, mark) => (!labels.has(label) || kept.has(mark)) && (!raisedLetter.test(label) || labels.has(label))
  )
}

/** The page with `items`, their lines' and cells' note references only those `keeps` says. */
const keepingReferences = (
  page: OrderedPage,
  items: ReadonlyArray<PageItem>,
  keeps: (label: string, mark: Mark) => boolean
): OrderedPage => {
  const keep = (text: string, marks: ReadonlyArray<Mark>): ReadonlyArray<Mark> => {
    const out = marks.filter((mark) =>
      mark.style !== Style.footnote || keeps(text.slice(mark.start, mark.end).trim(), mark)
    )
    return out.length === marks.length ? marks : out
  }
  let changed = items.length !== page.items.length
  const out = items.map((item): PageItem => {
    if (item._tag === "Line" && item.line.marks !== undefined) {
      const marks = keep(item.line.text, item.line.marks)
      if (marks === item.line.marks) return item
      changed = true
      return { _tag: "Line", line: { ...item.line, marks: marks.length > 0 ? marks : undefined } }
    }
    if (item._tag === "Table" && item.marks !== undefined) {
      const marks = item.marks.map((row, r) => row.map((cell, c) => keep(item.rows[r]?.[c] ?? "", cell)))
      if (marks.every((row, r) => row.every((cell, c) => cell === item.marks![r]![c]))) return item
      changed = true
      return { ...item, marks }
    }
    return item
  })
  return changed ? { ...page, items: out } : page
}

/** The note references of a table's cells, for a table whose other styles are not kept (none: `{}`). */
export const noteMarks = (
  rows: ReadonlyArray<ReadonlyArray<Line>>
): { readonly marks?: Array<Array<ReadonlyArray<Mark>>> } => {
  const marks = rows.map((row) => row.map((cell) => (cell.marks ?? []).filter((mark) => mark.style === Style.footnote)))
  return marks.some((row) => row.some((cell) => cell.length > 0)) ? { marks } : {}
}
