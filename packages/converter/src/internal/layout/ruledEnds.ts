/**
 * A table's open ends: cell borders going on past its top or bottom rule frame a header or last row
 * that has no rule of its own (XEP's frame="none" draws rules between rows and borders between cells).
 */
import type { Rule } from "./model.js"

/** How far vertical rules joined end to end go on from `y`, up (`-1`) or down (`1`). */
const reach = (verticals: ReadonlyArray<Rule>, y: number, way: -1 | 1, gap: number): number => {
  let end = y
  for (let moved = true; moved;) {
    moved = false
    for (const rule of verticals) {
      const [near, far] = way < 0 ? [rule.y1, rule.y0] : [rule.y0, rule.y1]
      if ((end - near) * way <= gap && (far - end) * way > gap) {
        end = far
        moved = true
      }
    }
  }
  return end
}

/**
 * `[y0, y1]` of a table ruled from `y0` to `y1`, widened to where two or more of its borders (`verticals`) go on among
 * the page's vertical rules (`all`), not past another rule (`across`) nor half again its tallest row (`rules`).
 */
export const openEnds = (
  verticals: ReadonlyArray<Rule>,
  all: ReadonlyArray<Rule>,
  rules: ReadonlyArray<Rule>,
  across: ReadonlyArray<Rule>,
  gap: number
): readonly [number, number] => {
  const y0 = rules[0]!.y0
  const y1 = rules[rules.length - 1]!.y1
  const tallest = Math.max(...rules.slice(1).map((rule, i) => rule.y0 - rules[i]!.y1))
  const groups: Array<Array<number>> = []
  for (const x of verticals.map((rule) => rule.x0).sort((a, b) => a - b)) {
    const last = groups[groups.length - 1]
    if (last !== undefined && x - last[last.length - 1]! <= gap) last.push(x)
    else groups.push([x])
  }
  // Each border's own segments only: a table above or below has borders of its own.
  const borders = groups.map((xs) =>
    all.filter((rule) => !rule.horizontal && rule.x0 >= xs[0]! - gap && rule.x0 <= xs[xs.length - 1]! + gap)
  )
  const widened = (y: number, way: -1 | 1) => {
    const reaches = borders.map((border) => reach(border, y, way, gap)).filter((end) => (end - y) * way > gap)
    if (reaches.length < 2) return y
    const end = way < 0 ? Math.max(...reaches) : Math.min(...reaches)
    const crossed = across.some((rule) => (rule.y0 - y) * way > gap && (end - rule.y0) * way > -gap)
    return crossed || (end - y) * way > 1.5 * tallest ? y : end
  }
  return [widened(y0, -1), widened(y1, 1)]
}
