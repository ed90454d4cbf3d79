/**
 * Judges each fidelity check on a text read by `fidelityText.ts`, sums the judgements by the
 * reported kinds, and says, for a failure, what the text holds nearest to what was asserted.
 */
import type { Check, Group } from "./fidelityChecks.js"
import { groupOf, groups, textGroups } from "./fidelityChecks.js"
import type { Block, ReadText } from "./fidelityText.js"
import { normalize } from "./fidelityText.js"

const count = (text: string, part: string): number => {
  let n = 0
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) n++
  return n
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const headings = (read: ReadText) => read.blocks.filter((block) => block.kind === "heading")

/** The first heading holding `first`, and the first holding `second` after it (else anywhere). */
const headingPair = (read: ReadText, first: string, second: string): [Block, Block] | undefined => {
  const all = headings(read)
  const a = all.findIndex((block) => block.text.includes(first))
  if (a < 0) return undefined
  const after = all.slice(a + 1).find((block) => block.text.includes(second))
  const b = after ?? all.find((block, i) => i !== a && block.text.includes(second))
  return b === undefined ? undefined : [all[a]!, b]
}

const isBody = (block: Block) => block.kind !== "footnote"

/** Footnote text that is in a definition and in no body block. */
const footnoted = (read: ReadText, text: string): ReadonlyArray<Block> =>
  read.blocks.some((block) => isBody(block) && block.text.includes(text))
    ? []
    : read.blocks.filter((block) => block.kind === "footnote" && block.text.includes(text))

const referencedAt = (read: ReadText, before: string, label: string): boolean => {
  const pattern = new RegExp(`${escapeRegExp(before)} ?\\[\\^${escapeRegExp(label)}\\]`)
  return read.blocks.some((block) => block.withReferences !== undefined && pattern.test(block.withReferences))
}

/** Whether `check` holds on `read`, both sides normalised. */
export const judge = (check: Check, read: ReadText): boolean => {
  const text = read.text
  switch (check.kind) {
    case "present":
      return text.includes(normalize(check.text))
    case "absent":
      return !text.includes(normalize(check.text))
    case "once":
      return count(text, normalize(check.text)) === 1
    case "order": {
      const first = normalize(check.first)
      const a = text.indexOf(first)
      const b = text.indexOf(normalize(check.second))
      return a >= 0 && b >= a + first.length
    }
    case "adjacent": {
      const first = normalize(check.first)
      const second = normalize(check.second)
      return text.includes(`${first} ${second}`) || text.includes(first + second)
    }
    case "heading":
      return headings(read).some((block) => block.text.includes(normalize(check.text)))
    case "not-heading": {
      const needle = normalize(check.text)
      return text.includes(needle) && !headings(read).some((block) => block.text.includes(needle))
    }
    case "heading-above":
    case "heading-same": {
      const pair = headingPair(read, normalize(check.first), normalize(check.second))
      if (pair === undefined) return false
      const [a, b] = pair
      return check.kind === "heading-above" ? a.depth! < b.depth! : a.depth === b.depth
    }
    case "item":
      return read.blocks.some((block) => block.kind === "item" && block.text.includes(normalize(check.text)))
    case "row": {
      const a = normalize(check.first)
      const b = normalize(check.second)
      return read.blocks.some((block) =>
        (block.rows ?? []).some((row) => {
          const i = row.findIndex((cell) => cell.includes(a))
          return i >= 0 && row.slice(i + 1).some((cell) => cell.includes(b))
        })
      )
    }
    case "footnote":
      return footnoted(read, normalize(check.text)).length > 0
    case "footnote-at":
      return footnoted(read, normalize(check.second)).some((block) =>
        referencedAt(read, normalize(check.first), block.label!)
      )
    case "code":
      return read.blocks.some((block) => block.kind === "code" && block.text.includes(normalize(check.text)))
    case "prose":
      return read.blocks.some((block) =>
        block.kind !== "code" && block.kind !== "table" && block.text.includes(normalize(check.text))
      )
  }
}

export interface Tally {
  readonly held: number
  readonly total: number
}

export type Tallies = Readonly<Record<Group, Tally>>

export const emptyTallies: Tallies = Object.fromEntries(groups.map((g) => [g, { held: 0, total: 0 }])) as Record<
  Group,
  Tally
>

export const addTallies = (a: Tallies, b: Tallies): Tallies =>
  Object.fromEntries(groups.map((g) => [g, { held: a[g].held + b[g].held, total: a[g].total + b[g].total }])) as Record<
    Group,
    Tally
  >

/** Each check judged on `read`; with `textOnly`, only the kinds plain text can be judged on. */
export const score = (
  checks: ReadonlyArray<Check>,
  read: ReadText,
  textOnly = false
): { readonly tallies: Tallies; readonly failed: ReadonlyArray<Check> } => {
  const tallies: Record<Group, Tally> = { ...emptyTallies }
  const failed: Array<Check> = []
  for (const check of checks) {
    const group = groupOf(check.kind)
    if (textOnly && !textGroups.includes(group)) continue
    const held = judge(check, read)
    if (!held) failed.push(check)
    tallies[group] = { held: tallies[group].held + (held ? 1 : 0), total: tallies[group].total + 1 }
  }
  return { tallies, failed }
}

/** `text` around `at`, on one line. */
const excerpt = (text: string, at: number, length: number): string => {
  const start = Math.max(0, at - 50)
  const end = Math.min(text.length, at + length + 50)
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`
}

/** Where the longest run of `needle`'s first or last words occurs in `text`, if any does. */
const nearest = (text: string, needle: string): string => {
  const words = normalize(needle).split(" ")
  for (let n = words.length; n >= 1; n--) {
    for (const part of [words.slice(0, n).join(" "), words.slice(words.length - n).join(" ")]) {
      if (n === 1 && part.length < 4) continue
      const at = text.indexOf(part)
      if (at >= 0) return `${n}/${words.length} words found: "${excerpt(text, at, part.length)}"`
    }
  }
  return "none of its words found"
}

/** The first blocks holding `text` (a contents line often comes before the heading itself). */
const blockHolding = (read: ReadText, text: string): string => {
  const needle = normalize(text)
  const blocks = read.blocks.filter((candidate) => candidate.text.includes(needle))
  if (blocks.length === 0) return nearest(read.text, text)
  return blocks.slice(0, 2).map((block) => {
    const kind = block.kind === "heading" ? `heading level ${block.depth}` : block.kind
    return `in a ${kind}: "${excerpt(block.text, block.text.indexOf(needle), needle.length)}"`
  }).join(", then ") + (blocks.length > 2 ? ` (${blocks.length} blocks)` : "")
}

/** A short account of what `read` holds where a failed `check` looked. */
export const explain = (check: Check, read: ReadText): string => {
  switch (check.kind) {
    case "absent":
    case "once": {
      const needle = normalize(check.text)
      const n = count(read.text, needle)
      const at = read.text.indexOf(needle)
      return n === 0 ? nearest(read.text, needle) : `${n} times, first: "${excerpt(read.text, at, needle.length)}"`
    }
    case "present":
    case "code":
    case "prose":
    case "item":
    case "heading":
    case "not-heading":
    case "footnote":
      return blockHolding(read, check.text)
    case "order":
    case "adjacent": {
      const first = normalize(check.first)
      const at = read.text.indexOf(first)
      const after = at < 0 ? nearest(read.text, first) : `after the first: "${excerpt(read.text, at, first.length)}"`
      return `${after}; second: ${blockHolding(read, check.second)}`
    }
    case "heading-above":
    case "heading-same":
    case "row":
    case "footnote-at":
      return `first: ${blockHolding(read, check.first)}; second: ${blockHolding(read, check.second)}`
  }
}
