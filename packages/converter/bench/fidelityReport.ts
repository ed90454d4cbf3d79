/**
 * Printing helpers of the fidelity bench: tallies as "held/total", percentages, a padded
 * Markdown table, medians and geometric means.
 */
import type { Tally } from "./fidelityScore.js"

export const tally = (t: Tally): string => t.total === 0 ? "-" : `${t.held}/${t.total}`

export const percent = (t: Tally): string =>
  t.total === 0 ? "-" : `${(t.held / t.total * 100).toFixed(1)}% of ${t.total}`

export const median = (values: ReadonlyArray<number>): number => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

export const geomean = (values: ReadonlyArray<number>): number =>
  Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length)

export const formatTable = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): void => {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)))
  const format = (line: ReadonlyArray<string>) => `| ${line.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`
  console.log(format(header))
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`)
  for (const row of rows) console.log(format(row))
}
