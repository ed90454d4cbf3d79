/**
 * Tables drawn with rules (cell borders, booktabs lines): horizontal rules stacked with text between
 * them. Columns are the inner vertical rules, else the gaps no run crosses; rows are the bands between
 * rules when every row is ruled, else the baselines (an empty first cell goes on with the row above).
 */
import type { Rich } from "./inline.js"
import { joinRich, richLine } from "./inline.js"
import type { Row } from "./lines.js"
import { isMono, makeLine } from "./lines.js"
import type { Box, Rule, TextItem } from "./model.js"
import { bandsOfRows, closedStacks, codeInterlude, splitWidths, withoutNotes } from "./ruledBands.js"
import { openEnds } from "./ruledEnds.js"

/**
 * In points: rules at one height within `sameLine` are one, closer than `joinGap` in x they join; a
 * table's rules are within `maxRowHeight` of the next and overlap by `minOverlap` of their width.
 */
const sameLine = 1
const joinGap = 3
const maxRowHeight = 180
const minOverlap = 0.8
/** A table's rules span at least this share of the page. */
const minWidth = 0.2
/** A gap between cells this many font sizes wide at least, when no vertical rule parts them. */
const cellGap = 0.6
const alignedGap = 0.25
const alignedRows = 3

export interface RuledTable extends Box {
  readonly cells: ReadonlyArray<ReadonlyArray<Rich>>
}

/**
 * Horizontal rules merged: segments at one height that touch are one rule (a row border drawn cell by
 * cell). Segments are taken left to right at each height: a cell's border a hair higher than its
 * neighbour's (a thicker pen) still joins it on its left.
 */
export const mergedRules = (rules: ReadonlyArray<Rule>): Array<Rule> => {
  const sorted = rules.filter((rule) => rule.horizontal).sort((a, b) => a.y0 - b.y0)
  const heights: Array<Array<Rule>> = []
  for (const rule of sorted) {
    const height = heights[heights.length - 1]
    if (height !== undefined && rule.y0 - height[0]!.y0 <= sameLine) height.push(rule)
    else heights.push([rule])
  }
  const out: Array<Rule> = []
  for (const height of heights) {
    const start = out.length
    for (const rule of height.sort((a, b) => a.x0 - b.x0)) {
      const last = out.length > start ? out[out.length - 1]! : undefined
      if (last !== undefined && rule.x0 <= last.x1 + joinGap) {
        out[out.length - 1] = {
          ...last,
          x1: Math.max(last.x1, rule.x1),
          y0: Math.min(last.y0, rule.y0),
          y1: Math.max(last.y1, rule.y1)
        }
      } else {
        out.push(rule)
      }
    }
  }
  return out.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0)
}

/** Whether three vertical rules or more (a cell border inside a frame) join rules `a` and `b` (`a` above). */
const framed = (verticals: ReadonlyArray<Rule>, a: Rule, b: Rule): boolean => {
  const xs = verticals.filter((v) =>
    v.y0 <= a.y1 + joinGap && v.y1 >= b.y0 - joinGap && v.x0 >= a.x0 - joinGap && v.x1 <= a.x1 + joinGap
  ).map((v) => v.x0).sort((p, q) => p - q)
  // Rules a hair apart (a shading drawn in strips) are one border.
  return xs.filter((x, i) => i === 0 || x - xs[i - 1]! > joinGap).length >= 3
}

const overlap = (a: Rule, b: Rule): number =>
  (Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) / Math.min(a.x1 - a.x0, b.x1 - b.x0)

/** The rules drawn on the page: one reaching past its edge is a clipped shading or shadow, no table's border. */
const onPage = (rules: ReadonlyArray<Rule>, pageWidth: number): Array<Rule> =>
  rules.filter((rule) => rule.x0 >= -joinGap && rule.y0 >= -joinGap && rule.x1 <= pageWidth + joinGap)

/** Stacks of two or more long rules over one another: the frames of candidate tables. */
const stacks = (rules: ReadonlyArray<Rule>, pageWidth: number): Array<Array<Rule>> => {
  const long = mergedRules(rules).filter((rule) => rule.x1 - rule.x0 >= minWidth * pageWidth)
  const verticals = rules.filter((rule) => !rule.horizontal)
  const groups: Array<Array<Rule>> = []
  for (const rule of long) {
    const group = groups.find((g) => {
      const last = g[g.length - 1]!
      // A row taller than `maxRowHeight` is one when its cells' borders join its rules.
      return rule.y0 - last.y0 > sameLine && overlap(last, rule) >= minOverlap &&
        (rule.y0 - last.y0 <= maxRowHeight || framed(verticals, last, rule))
    })
    if (group !== undefined) group.push(rule)
    else groups.push([rule])
  }
  return closedStacks(groups, (a, b) => overlap(a, b) >= minOverlap, joinGap).flatMap((group) =>
    splitUnjoined(group, rules)
  ).flatMap((group) => splitWidths(group, verticals, joinGap)).filter((group) => group.length >= 2)
}

/** A page's stacks, found once: the page reader's spans and both passes of the reading order ask for them. */
const stacksFound = new WeakMap<ReadonlyArray<Rule>, { readonly width: number; readonly stacks: Array<Array<Rule>> }>()

const drawnStacks = (drawn: ReadonlyArray<Rule>, pageWidth: number): ReadonlyArray<ReadonlyArray<Rule>> => {
  const known = stacksFound.get(drawn)
  if (known !== undefined && known.width === pageWidth) return known.stacks
  const made = stacks(onPage(drawn, pageWidth), pageWidth)
  stacksFound.set(drawn, { width: pageWidth, stacks: made })
  return made
}

/** The heights between two rules of a stack (top-down, `[y0, y1]`): where a table's rows may stand. */
export const ruledSpans = (rules: ReadonlyArray<Rule>, pageWidth: number): Array<readonly [number, number]> =>
  drawnStacks(rules, pageWidth).map((stack) => [stack[0]!.y0, stack[stack.length - 1]!.y1] as const)

/** A stack cut where no vertical rule joins two rules while others do: two framed tables, one above the other. */
const splitUnjoined = (group: ReadonlyArray<Rule>, rules: ReadonlyArray<Rule>): Array<Array<Rule>> => {
  const verticals = rules.filter((rule) => !rule.horizontal)
  const joins = (a: Rule, b: Rule) =>
    verticals.some((v) =>
      v.y0 <= a.y1 + joinGap && v.y1 >= b.y0 - joinGap && v.x0 >= a.x0 - joinGap && v.x1 <= a.x1 + joinGap
    )
  const joined = group.slice(1).map((rule, i) => joins(group[i]!, rule))
  if (!joined.some(Boolean)) return [[...group]]
  const out: Array<Array<Rule>> = [[group[0]!]]
  group.slice(1).forEach((rule, i) => {
    if (joined[i]) out[out.length - 1]!.push(rule)
    else out.push([rule])
  })
  return out
}

/** The page's long horizontal rules under some of `[x0, x1]`. */
const across = (rules: ReadonlyArray<Rule>, x0: number, x1: number): Array<Rule> =>
  mergedRules(rules).filter((rule) =>
    rule.x1 - rule.x0 >= 0.5 * (x1 - x0) && Math.min(rule.x1, x1) - Math.max(rule.x0, x0) > 0
  )

/** A stack's rules with each doubled rule (REVTeX's Scotch rules, a hair apart) counted once. */
const single = (stack: ReadonlyArray<Rule>): Array<Rule> =>
  stack.filter((rule, i) => i === 0 || rule.y0 - stack[i - 1]!.y1 > joinGap)

/**
 * Each baseline's row: a baseline of small type just above or below a row's (a raised note label,
 * "Left^a", an index "D_4h") is that row's.
 */
const rowBaselines = (items: ReadonlyArray<TextItem>): Map<number, number> => {
  const sizes = items.map((item) => item.size).sort((a, b) => a - b)
  const body = sizes[Math.floor(sizes.length / 2)]!
  const ys = [...new Set(items.map((item) => Math.round(item.y)))].sort((a, b) => a - b)
  const small = (y: number) => items.every((item) => Math.round(item.y) !== y || item.size < 0.85 * body)
  const near = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b !== undefined && Math.abs(b - a) <= 0.6 * body
  const rows = new Map<number, number>()
  let row = -1
  ys.forEach((y, i) => {
    // Baselines a hair apart are one (a script set in a larger face beside the text).
    const joins = (small(y) ? near(ys[i - 1], y) && !small(ys[i - 1]!) : near(ys[i - 1], y) && small(ys[i - 1]!)) ||
      y - ys[i - 1]! <= 0.2 * body
    if (!joins) row++
    rows.set(y, row)
  })
  return rows
}

/** Column edges: inner vertical rules, else the gaps that no item of the rows crosses. */
const columnEdges = (
  items: ReadonlyArray<TextItem>,
  verticals: ReadonlyArray<Rule>,
  x0: number,
  x1: number,
  narrowGaps = true
): Array<number> => {
  const inner = verticals.map((rule) => (rule.x0 + rule.x1) / 2).filter((x) => x > x0 + joinGap && x < x1 - joinGap)
  // Borders down the frame's two sides only (drawn from the rules' ends) part no columns: the gaps do.
  if (inner.some((x) => x > x0 + 2 * joinGap && x < x1 - 2 * joinGap)) {
    // Each cell's own border: two rules a hair apart are one edge.
    const edges: Array<number> = []
    for (const x of inner.sort((a, b) => a - b)) {
      if (edges.length === 0 || x - edges[edges.length - 1]! > joinGap) edges.push(x)
    }
    return edges
  }
  const spans = items.map((item) => [item.x, item.x + item.width, item.size] as const).sort((a, b) => a[0] - b[0])
  // A narrow tabular (small \tabcolsep): a column told by runs starting at one x on several baselines.
  const aligned = (x: number) =>
    new Set(items.filter((item) => Math.abs(item.x - x) <= sameLine).map((item) => Math.round(item.y))).size >=
      alignedRows
  const edges: Array<number> = []
  let narrow = 0
  let end = -Infinity
  for (const [start, stop, size] of spans) {
    const gap = start - end
    const wide = gap >= cellGap * size
    if (end > -Infinity && (wide || (narrowGaps && gap >= alignedGap * size && aligned(start)))) {
      edges.push((start + end) / 2)
      if (!wide) narrow++
    }
    end = Math.max(end, stop)
  }
  return narrow > 0 && edges.length < 2 ? columnEdges(items, verticals, x0, x1, false) : edges
}

const empty: Rich = { text: "", marks: [] }

/** The items of a band as text: baselines in order, each read as a line, joined. */
const cellText = (items: ReadonlyArray<TextItem>): Rich => {
  const sorted = [...items].sort((a, b) => a.y - b.y || a.x - b.x)
  const lines: Array<Array<TextItem>> = []
  for (const item of sorted) {
    const line = lines[lines.length - 1]
    if (line !== undefined && Math.abs(item.y - line[0]!.y) <= 0.5 * item.size) line.push(item)
    else lines.push([item])
  }
  // A raised note label sorts above its line's words: each line is read in visual order.
  return lines.map((line) => richLine(makeLine(line.sort((a, b) => a.x - b.x)))).reduce(
    (a, b) => a.text === "" ? b : joinRich(a, b),
    empty
  )
}

/** A stack cut at each band holding only large type or code: a heading and example between two booktabs tables. */
const cutAtInterludes = (
  stack: ReadonlyArray<Rule>,
  items: ReadonlyArray<TextItem>,
  verticals: ReadonlyArray<Rule>
): Array<Array<Rule>> => {
  const x0 = Math.min(...stack.map((rule) => rule.x0)) - joinGap
  const x1 = Math.max(...stack.map((rule) => rule.x1)) + joinGap
  const between = (a: Rule, b: Rule) =>
    items.filter((item) =>
      item.y > a.y0 && item.y - 0.7 * item.size < b.y1 && item.x >= x0 && item.x + item.width <= x1
    )
  const sizes = between(stack[0]!, stack[stack.length - 1]!).map((item) => item.size).sort((a, b) => a - b)
  if (sizes.length === 0) return [[...stack]]
  const large = (item: TextItem) => item.size > 1.15 * sizes[Math.floor(sizes.length / 2)]!
  const out: Array<Array<Rule>> = [[stack[0]!]]
  // Only lines wider than two rules, two rules or more on each side: a note and a caption between two tables.
  const across = (a: Rule, b: Rule) => {
    const lo = Math.max(a.x0, b.x0) - joinGap
    const hi = Math.min(a.x1, b.x1) + joinGap
    const band = items.filter((item) =>
      item.y > a.y0 && item.y - 0.7 * item.size < b.y1 && item.x < hi && item.x + item.width > lo
    )
    const wide = band.filter((item) => item.x < lo || item.x + item.width > hi)
    const lines = new Set(wide.map((item) => Math.round(item.y))).size
    return lines >= 2 && wide.some((item) => item.x < lo && item.x + item.width > hi) &&
      band.every((item) => wide.some((w) => Math.abs(w.y - item.y) <= 0.5 * item.size))
  }
  for (let i = 1; i < stack.length; i++) {
    const band = between(stack[i - 1]!, stack[i]!)
    const parts = out[out.length - 1]!.length >= 2 && stack.length - i >= 2
    // A band framed by cell borders is a row (a bold header larger than the cells), never an interlude.
    const interlude = !framed(verticals, stack[i - 1]!, stack[i]!) &&
      ((band.some(large) && band.every((item) => large(item) || isMono(item))) ||
        (parts &&
          (across(stack[i - 1]!, stack[i]!) || codeInterlude(band, Math.min(stack[i - 1]!.x0, stack[i]!.x0), cellGap))))
    if (interlude) out.push([stack[i]!])
    else out[out.length - 1]!.push(stack[i]!)
  }
  return out.filter((group) => group.length >= 2)
}

/**
 * Mostly code: most runs, and most of the characters, are monospaced. Short keywords in code type beside
 * their descriptions ("YYYY | 4-digit year") are runs enough but few characters: a table.
 */
const mostlyCode = (items: ReadonlyArray<TextItem>): boolean => {
  const mono = items.filter(isMono)
  const chars = (list: ReadonlyArray<TextItem>) => list.reduce((n, item) => n + item.text.length, 0)
  return mono.length * 2 > items.length && chars(mono) * 2 > chars(items)
}

/** The ruled tables of a page, their items taken out of `rows`; not a table: one column or row, or mostly code. */
export const takeRuledTables = (
  rows: ReadonlyArray<Row>,
  drawn: ReadonlyArray<Rule>,
  pageWidth: number,
  taken: (y0: number, y1: number) => boolean,
  framedOnly = false
): Array<RuledTable> => {
  const rules = onPage(drawn, pageWidth)
  const frames = rules.length === 0 ? [] : drawnStacks(drawn, pageWidth)
  if (frames.length === 0) return []
  const tables: Array<RuledTable> = []
  const all = rows.flatMap((row) => row.items)
  const allVerticals = rules.filter((rule) => !rule.horizontal)
  const cut = frames.flatMap((stack) => cutAtInterludes(stack, all, allVerticals))
  for (const stack of cut.map((stack) => withoutNotes(stack, all, joinGap))) {
    const x0 = Math.min(...stack.map((rule) => rule.x0)) - joinGap
    const x1 = Math.max(...stack.map((rule) => rule.x1)) + joinGap
    let y0 = stack[0]!.y0
    let y1 = stack[stack.length - 1]!.y1
    if (taken(y0, y1)) continue
    const inside = (item: TextItem) =>
      item.y > y0 && item.y - 0.7 * item.size < y1 && item.x >= x0 && item.x + item.width <= x1
    let within = rows.flatMap((row) => row.items.filter(inside))
    if (within.length < 2 || mostlyCode(within)) continue
    const verticals = rules.filter((rule) =>
      !rule.horizontal && rule.x0 >= x0 && rule.x1 <= x1 && rule.y1 > y0 && rule.y0 < y1
    )
    const edges = columnEdges(within, verticals, x0, x1)
    const borders = verticals.some((rule) => rule.x0 > x0 + 2 * joinGap && rule.x1 < x1 - 2 * joinGap)
    // Framed: a rule under every row (four or more) and a rule between the columns.
    if (edges.length === 0 || (framedOnly && !(borders && stack.length >= 4))) continue
    // Cell borders going on past the top or bottom rule: a header or last row left open (XEP's frame=none).
    if (borders) {
      ;[y0, y1] = openEnds(verticals, allVerticals, stack, across(rules, x0, x1), joinGap)
      within = rows.flatMap((row) => row.items.filter(inside))
    }
    const column = (item: TextItem) => edges.filter((edge) => edge <= item.x + item.width / 2).length
    const baselines = rowBaselines(within)
    // Rules between the rows when there are four or more (booktabs draws three: top, header, bottom).
    // A partial rule parts rows in a framed table (a cell spanning rows beside it), not a \cmidrule in booktabs.
    const spanning = single(stack.filter((rule) => rule.x1 - rule.x0 >= minOverlap * (x1 - x0 - 2 * joinGap)))
    const ruled = (borders ? stack : spanning).length >= 4 &&
      (borders || !bandsOfRows(within, spanning, baselines, column))
    // Cell borders and a rule between every row: a larger bold header is a row, not a title.
    const framedRows = ruled && borders
    const bands: Array<Array<TextItem>> = []
    // Under the last rule above it that crosses its column: a cell spanning rows goes on past a partial rule.
    const bandOf = (item: TextItem) =>
      ruled
        ? stack.map((rule) =>
          rule.y0 < item.y - 0.3 * item.size && rule.x0 <= item.x + item.width / 2 &&
          rule.x1 >= item.x + item.width / 2
        ).lastIndexOf(true) + 1
        : baselines.get(Math.round(item.y))!
    for (const item of within) (bands[bandOf(item)] ??= []).push(item)
    // A larger title between two tables stands alone between rules; a large example in a ruled row is a cell.
    const sizes = within.map((item) => item.size).sort((a, b) => a - b)
    const large = (item: TextItem) => item.size > 1.15 * sizes[Math.floor(sizes.length / 2)]!
    if (
      !framedRows && (ruled ? bands.some((band) => band !== undefined && band.every(large)) : within.some(large))
    ) continue
    const cells: Array<Array<Rich>> = []
    let above = -Infinity
    for (const band of bands) {
      if (band === undefined) continue
      const y = Math.min(...band.map((item) => item.y))
      const apart = y - above >= 0.8 * Math.max(...band.map((item) => item.size))
      above = y
      const row = Array.from(
        { length: edges.length + 1 },
        (_, c) => cellText(band.filter((item) => column(item) === c))
      )
      const last = cells[cells.length - 1]
      // A baseline a line apart filling every cell of the row above but the first: a group's row.
      const full = apart && row.slice(1).filter((cell) => cell.text !== "").length >= 2 &&
        last?.every((cell, c) => c === 0 || cell.text === "" || row[c]!.text !== "")
      if (!ruled && last !== undefined && row[0]!.text === "" && !full) {
        row.forEach((cell, c) =>
          last[c] = last[c]!.text === "" ? cell : cell.text === "" ? last[c]! : joinRich(last[c]!, cell)
        )
      } else {
        cells.push(row)
      }
    }
    // Columns empty in every row (an edge of a cell spanning others) go.
    const used = cells[0]!.map((_, c) => cells.some((row) => row[c]!.text !== ""))
    const kept = cells.map((row) => row.filter((_, c) => used[c]))
    if (kept.length < 2 || kept.every((row) => row.filter((cell) => cell.text !== "").length < 2)) continue
    // The rows keep what stands outside the table (an empty row reads as no line).
    for (const row of rows) row.items.splice(0, row.items.length, ...row.items.filter((item) => !inside(item)))
    tables.push({ x0, x1, y0, y1, cells: kept })
  }
  return tables
}
