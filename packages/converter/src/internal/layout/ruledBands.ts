/**
 * Rules of reports' tables (booktabs as R and LaTeX set them): a tall table closed by its bottom rule,
 * rules grouping blocks of rows, notes inside the frame, code and titles between two tables.
 */
import { isMono } from "./lines.js"
import type { Rule, TextItem } from "./model.js"
import { Style } from "./model.js"

/** A header's two rules (top and mid rule) this close at most, in points: one or two header lines. */
const headerHeight = 40

/**
 * A header's two rules with the next rule under them of the same extent, however far, alone or over
 * rules of another extent: a booktabs table taller than `maxRowHeight` closed by its bottom rule.
 */
export const closedStacks = (
  groups: ReadonlyArray<Array<Rule>>,
  overlapping: (a: Rule, b: Rule) => boolean,
  joinGap: number
): Array<Array<Rule>> => {
  const out = groups.map((group) => [...group])
  out.forEach((group, i) => {
    if (group.length !== 2 || group[1]!.y0 - group[0]!.y0 > headerHeight) return
    const next = out.findIndex((other, j) => j > i && other.length > 0 && overlapping(group[0]!, other[0]!))
    const same = (a: Rule | undefined, b: Rule | undefined) =>
      a !== undefined && b !== undefined && Math.abs(a.x0 - b.x0) <= joinGap && Math.abs(a.x1 - b.x1) <= joinGap
    const [bottom, after] = [out[next]?.[0], out[next]?.[1]]
    // The bottom rule may stand close over the next table, whose rules have an extent of their own.
    if (same(bottom, group[0]) && (after === undefined || !same(after, bottom))) group.push(out[next]!.shift()!)
  })
  return out
}

/**
 * Whether a band between two rules holds two rows or more, each a label and another cell on its own
 * baseline: rules that group rows (booktabs' rules around a block of figures), not one under each row.
 */
export const bandsOfRows = (
  items: ReadonlyArray<TextItem>,
  rules: ReadonlyArray<Rule>,
  baselines: Map<number, number>,
  column: (item: TextItem) => number
): boolean =>
  rules.slice(1).some((rule, i) => {
    const band = items.filter((item) => item.y > rules[i]!.y0 && item.y - 0.3 * item.size < rule.y0)
    const columns = new Map<number, Set<number>>()
    for (const item of band) {
      const row = baselines.get(Math.round(item.y))!
      columns.set(row, (columns.get(row) ?? new Set()).add(column(item)))
    }
    return [...columns.values()].filter((cells) => cells.has(0) && cells.size >= 2).length >= 2
  })

/**
 * A band of code lines under a bold title between two tables of two rules or more (an R example and
 * its title between booktabs tables): every line starts at the rules' left end (a cell starts a
 * column gap in), none has cells, the code lines are whole.
 */
export const codeInterlude = (band: ReadonlyArray<TextItem>, left: number, cellGap: number): boolean => {
  const title = band.filter((item) => !isMono(item))
  if (title.length === 0 || !band.some(isMono) || title.some((item) => (item.style & Style.strong) === 0)) return false
  const lines = new Map<number, Array<TextItem>>()
  for (const item of band) {
    const y = Math.round(item.y)
    lines.set(y, [...(lines.get(y) ?? []), item])
  }
  return [...lines.values()].every((line) => {
    const sorted = line.sort((a, b) => a.x - b.x)
    if (Math.abs(sorted[0]!.x - left) > 2) return false
    return line.every(isMono) ||
      sorted.every((item, i) => i === 0 || item.x - (sorted[i - 1]!.x + sorted[i - 1]!.width) < cellGap * item.size)
  })
}

/**
 * A stack without its last rule when the band above that rule holds only notes, each line led by a
 * label in small type ("¹ Coefficient not significant"): notes set inside a booktabs table's frame
 * cross its columns.
 */
export const withoutNotes = (
  stack: ReadonlyArray<Rule>,
  items: ReadonlyArray<TextItem>,
  joinGap: number
): ReadonlyArray<Rule> => {
  if (stack.length < 3) return stack
  const [a, b] = [stack[stack.length - 2]!, stack[stack.length - 1]!]
  const band = items.filter((item) =>
    item.y > a.y1 && item.y - 0.7 * item.size < b.y0 && item.x >= a.x0 - joinGap &&
    item.x + item.width <= a.x1 + joinGap
  ).sort((p, q) => p.y - q.y || p.x - q.x)
  const sizes = items.map((item) => item.size).sort((p, q) => p - q)
  const body = sizes[Math.floor(sizes.length / 2)]!
  const small = (item: TextItem) =>
    item.size < 0.85 * body && /^[\p{N}\p{Ll}*\u2020\u2021]{1,2}$/u.test(item.text.trim())
  const leads = band.filter((item) => !band.some((other) => other.x < item.x && Math.abs(other.y - item.y) < item.size))
  // Each text line is led by a label just before it: a raised label's baseline stands above its line's.
  const labelled = (item: TextItem) =>
    small(item) ||
    band.some((label) => small(label) && label.x < item.x && item.y - label.y < body && label.y <= item.y)
  return band.length >= 2 && band.some(small) && leads.every(labelled) ? stack.slice(0, -1) : stack
}
