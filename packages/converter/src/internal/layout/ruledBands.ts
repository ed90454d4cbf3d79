/** Booktabs tables of reports (R, LaTeX): tall tables, rules around blocks of rows, notes, code between. */
import { isMono } from "./lines.js"
import type { Rule, TextItem } from "./model.js"
import { Style } from "./model.js"

// In points: a header's top and mid rule this close at most (one or two header lines).
const headerHeight = 40

/** A header's two rules take the next rule of their extent however far (a tall table's bottom rule). */
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
    if (same(bottom, group[0]) && (after === undefined || !same(after, bottom))) group.push(out[next]!.shift()!)
  })
  return out
}

/**
 * A stack cut where its rules change width for good: two tables of different widths one over the
 * other (each ruled by two rules or more of its own width; both ends apart when framed), not a
 * \cmidrule among full rules.
 */
export const splitWidths = (
  group: ReadonlyArray<Rule>,
  verticals: ReadonlyArray<Rule>,
  joinGap: number
): Array<Array<Rule>> => {
  if (group.length < 4) return [[...group]]
  const runs: Array<Array<Rule>> = []
  for (const rule of group) {
    const run = runs[runs.length - 1]
    const same = run !== undefined && Math.abs(run[0]!.x0 - rule.x0) <= joinGap &&
      Math.abs(run[0]!.x1 - rule.x1) <= joinGap
    if (same) run.push(rule)
    else runs.push([rule])
  }
  // In a framed table a rule under some of its cells keeps one end with the others; booktabs has no frame.
  const top = group[0]!.y0
  const bottom = group[group.length - 1]!.y1
  const left = Math.min(...group.map((rule) => rule.x0)) - joinGap
  const right = Math.max(...group.map((rule) => rule.x1)) + joinGap
  const framedGroup = verticals.some((v) => v.y0 < bottom && v.y1 > top && v.x0 >= left && v.x1 <= right)
  const apart = !framedGroup ||
    runs.slice(1).every((run, i) =>
      Math.abs(run[0]!.x0 - runs[i]![0]!.x0) > joinGap && Math.abs(run[0]!.x1 - runs[i]![0]!.x1) > joinGap
    )
  return runs.length >= 2 && apart && runs.every((run) => single(run, joinGap).length >= 2) ? runs : [[...group]]
}

/** A run's rules with each doubled rule (a hair apart) counted once. */
const single = (rules: ReadonlyArray<Rule>, joinGap: number): Array<Rule> =>
  rules.filter((rule, i) => i === 0 || rule.y0 - rules[i - 1]!.y1 > joinGap)

/** Whether a band holds two rows with a label and a cell each: the rules group rows, not one per row. */
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

/** Code under a bold title between two tables: lines at the rules' left end (cells start further in). */
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

/** Without its last rule when the band above holds only notes led by small labels (they cross columns). */
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
  // A raised label's baseline stands above its line's.
  const labelled = (item: TextItem) =>
    small(item) ||
    band.some((label) => small(label) && label.x < item.x && item.y - label.y < body && label.y <= item.y)
  return band.length >= 2 && band.some(small) && leads.every(labelled) ? stack.slice(0, -1) : stack
}
