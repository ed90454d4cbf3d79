/** Notes of a tagged page: a note's label (its `Lbl`, or a first run that is only a mark), as its reference has it. */
import type * as Document from "../../Document.js"
import type { Rich } from "../layout/inline.js"
import type { TextItem } from "../layout/model.js"
import type { TagNode } from "./model.js"
import { isNote } from "./roles.js"

/** A run that is only a note's mark: "1", "*", "a" (a dot after it allowed). */
const labelPattern = /^(?:\d{1,3}|[*†‡§¶]{1,3}|[a-z])\.?$/u

type Runs = ReadonlyMap<number, ReadonlyArray<TextItem>>

const mcidText = (node: TagNode, runs: Runs): string =>
  node.kids.map((kid) =>
    typeof kid === "number" ? (runs.get(kid) ?? []).map((item) => item.text).join("") : mcidText(kid, runs)
  ).join("")

/** The first content of a note: its first MCID, or an `Lbl` before any. */
const firstContent = (node: TagNode): TagNode | number | undefined => {
  for (const kid of node.kids) {
    if (typeof kid === "number") {
      if (kid >= 0) return kid
      continue
    }
    if (kid.role === "Lbl") return kid
    const inner = firstContent(kid)
    if (inner !== undefined) return inner
  }
  return undefined
}

/** A note's label: its `Lbl`'s text, or its first run when that run is only a mark. */
export const noteLabel = (node: TagNode, runs: Runs): string | undefined => {
  const first = firstContent(node)
  if (first === undefined) return undefined
  if (typeof first !== "number") {
    const text = mcidText(first, runs).trim()
    return text === "" ? undefined : text
  }
  const text = (runs.get(first) ?? []).map((item) => item.text).join("").trim()
  return labelPattern.test(text) ? text : undefined
}

/** The labels of the page's notes. */
export const noteLabels = (tree: ReadonlyArray<TagNode>, runs: Runs): Set<string> => {
  const labels = new Set<string>()
  const visit = (node: TagNode) => {
    if (isNote(node.role)) {
      const label = noteLabel(node, runs)
      if (label !== undefined) labels.add(label)
    }
    for (const kid of node.kids) if (typeof kid !== "number") visit(kid)
  }
  tree.forEach(visit)
  return labels
}

/** Rich text without its first `count` characters (and the spaces after them). */
export const dropStart = (rich: Rich, count: number): Rich => {
  const rest = rich.text.slice(count)
  const shift = count + rest.length - rest.trimStart().length
  return {
    text: rich.text.slice(shift),
    marks: rich.marks.flatMap((mark) =>
      mark.end <= shift ? [] : [{ start: Math.max(0, mark.start - shift), end: mark.end - shift, style: mark.style }]
    )
  }
}

/** The footnote of a note's text, its label taken off the front. */
export const footnoteOf = (label: string | undefined, rich: Rich): Document.Footnote => {
  const text = label !== undefined && rich.text.startsWith(label) ? dropStart(rich, label.length) : rich
  return {
    _tag: "Footnote",
    label: label ?? "",
    text: text.text,
    ...(text.marks.length > 0 ? { marks: text.marks } : {})
  }
}
