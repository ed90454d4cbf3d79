/**
 * Tab stops inside a run (Word through PScript sets "API<tab>Application" as one run). A space costs
 * two box calls, so only runs the page's alignment makes candidates are measured (see the README).
 */
import type { CharSpan } from "./accentRuns.js"
import type { TextItem } from "./layout/model.js"
import { Style } from "./layout/model.js"

/** In font sizes: a gap inside a run wider than this is a tab stop (LaTeX's quad is 1.0). */
const tabGap = 1.2
const maxTerm = 32
const maxWords = 3
/** In font sizes: candidate rows are at most this far apart, as the glossary rule reads them. */
const maxRowGap = 2.6
/** In points: runs start at one x within this. */
const alignSlack = 2
/** In font sizes: three rows ending this close to one another are justified lines of a paragraph. */
const fillSlack = 0.05

const closing = /[.,;:!?]$/

/** Left and right edges of character `index` on the page. */
export type CharX = (index: number) => readonly [number, number]

const leftmost = (items: ReadonlyArray<TextItem>): Array<number> => {
  const order = items.map((_, i) => i).filter((i) => !items[i]!.rtl && items[i]!.text.trim() !== "")
    .sort((a, b) => items[a]!.y - items[b]!.y || items[a]!.x - items[b]!.x)
  const firsts: Array<number> = []
  for (const i of order) {
    const last = firsts[firsts.length - 1]
    if (last === undefined || Math.abs(items[i]!.y - items[last]!.y) > 0.3 * items[i]!.size) firsts.push(i)
  }
  return firsts
}

/** Whether a run's text may hold a term then a tab: a space after a word within `maxTerm` characters. */
const spaced = (item: TextItem): boolean => {
  if ((item.style & Style.code) !== 0) return false
  const space = item.text.trimStart().indexOf(" ")
  return space > 0 && space <= maxTerm
}

/** Indices of the runs worth measuring (see the module's header). */
export const tabCandidates = (items: ReadonlyArray<TextItem>): Array<number> => {
  const firsts = leftmost(items)
  const open = firsts.filter((i, k) => {
    const item = items[i]!
    if (!spaced(item)) return false
    const below = firsts[k + 1] === undefined ? undefined : items[firsts[k + 1]!]
    if (below !== undefined && below.x > item.x + item.size && below.y - item.y <= maxRowGap * item.size) return true
    const right = item.x + item.width
    const justified = firsts.filter((j) => {
      const other = items[j]!
      return Math.abs(other.x - item.x) <= alignSlack &&
        Math.abs(other.x + other.width - right) <= fillSlack * item.size
    })
    return justified.length < 3
  })
  return open.filter((i) => {
    const item = items[i]!
    const near = open.filter((j) => {
      const other = items[j]!
      return Math.abs(other.x - item.x) <= alignSlack && Math.abs(other.size - item.size) < 0.5 &&
        Math.abs(other.y - item.y) <= 2 * maxRowGap * item.size
    })
    return near.length >= 3
  })
}

/** A run's text offset as a page character index, when its first piece holds it. */
const indexAt = (spans: ReadonlyArray<CharSpan>, offset: number): number | undefined => {
  const span = spans[0]
  if (span === undefined) return undefined
  const index = span.start + offset - span.offset
  return index >= span.start && index < span.end ? index : undefined
}

/**
 * The run with its tab stop, when one of its first spaces (in a term's reach) is a gap wider than
 * `tabGap`, or its next word starts at `stop` (a term that nearly reaches the stop its rows share).
 */
const measured = (
  item: TextItem,
  spans: ReadonlyArray<CharSpan>,
  at: (index: number) => string,
  x: CharX,
  stop?: number
): TextItem => {
  const text = item.text
  let words = 0
  for (let k = text.length - text.trimStart().length; k < text.length && k <= maxTerm; k++) {
    if (text[k] !== " ") continue
    if (++words > maxWords || closing.test(text.slice(0, k))) return item
    let after = k + 1
    while (after < text.length && text[after] === " ") after++
    const before = indexAt(spans, k - 1)
    const next = indexAt(spans, after)
    if (after === text.length || before === undefined || next === undefined) return item
    if (at(before) !== text[k - 1] || at(next) !== text[after]) return item
    const left = x(next)[0]
    if (stop !== undefined ? Math.abs(left - stop) <= 1 : left - x(before)[1] > tabGap * item.size) {
      return { ...item, tab: { at: after, x: left } }
    }
    k = after - 1
  }
  return item
}

/** The page's runs with the tab stops of its candidate runs measured. */
export const withTabStops = (
  items: ReadonlyArray<TextItem>,
  spans: ReadonlyArray<ReadonlyArray<CharSpan>>,
  at: (index: number) => string,
  x: CharX
): Array<TextItem> => {
  const out = [...items]
  const candidates = tabCandidates(items)
  for (const i of candidates) out[i] = measured(items[i]!, spans[i]!, at, x)
  for (const i of candidates) {
    const item = out[i]!
    if (item.tab !== undefined) continue
    // The stop two rows or more at its x share.
    const stops = candidates.flatMap((j) => {
      const tab = out[j]!.tab
      return tab !== undefined && Math.abs(out[j]!.x - item.x) <= alignSlack ? [tab.x] : []
    })
    const stop = stops.find((s) => stops.filter((t) => Math.abs(t - s) <= 1).length >= 2)
    if (stop !== undefined) out[i] = measured(item, spans[i]!, at, x, stop)
  }
  return out
}
