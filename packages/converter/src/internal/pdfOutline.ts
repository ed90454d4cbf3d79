/** A document's outline (bookmarks) flattened with their depth and resolved to pages. */
import * as Effect from "effect/Effect"
import type { OutlineEntry } from "./layout.js"
import type { OpenDocument } from "./pdfDocument.js"
import * as P from "./pdfium.js"

/** Bookmarks deeper or more numerous than this are a malformed (or hostile) outline. */
const maxOutlineDepth = 32
const maxOutlineEntries = 100_000

/** Where a bookmark leads: its page (1-based) and, when the destination gives one, its top (PDF space). */
const destination = (open: OpenDocument, bookmark: number): { page: number; top: number | undefined } | undefined => {
  const m = open.module
  let dest = m.FPDFBookmark_GetDest(open.document, bookmark)
  if (dest === 0) {
    const action = m.FPDFBookmark_GetAction(bookmark)
    if (action !== 0) dest = m.FPDFAction_GetDest(open.document, action)
  }
  if (dest === 0) return undefined
  const index = m.FPDFDest_GetDestPageIndex(open.document, dest)
  if (index < 0) return undefined
  return P.withBuffer(m, 24, (out) => {
    const ok = m.FPDFDest_GetLocationInPage(dest, out, out + 4, out + 8, out + 12, out + 16, out + 20)
    const [, hasY] = P.ints(m, out, 2)
    const y = P.floats(m, out + 16, 1)[0]!
    return { page: index + 1, top: ok && hasY ? y : undefined }
  })
}

/** The bookmarks flattened with their depth and resolved to pages; an unreadable outline is none. */
export const outline = (open: OpenDocument): Effect.Effect<Array<OutlineEntry>> => Effect.sync(() => outlineOf(open))

const outlineOf = (open: OpenDocument): Array<OutlineEntry> => {
  const m = open.module
  const entries: Array<OutlineEntry> = []
  const seen = new Set<number>()
  const visit = (first: number, level: number) => {
    for (let bookmark = first; bookmark !== 0; bookmark = m.FPDFBookmark_GetNextSibling(open.document, bookmark)) {
      if (seen.has(bookmark) || seen.size >= maxOutlineEntries) return
      seen.add(bookmark)
      const title = P.readString(m, (buffer, length) => m.FPDFBookmark_GetTitle(bookmark, buffer, length))
      const target = destination(open, bookmark)
      if (target !== undefined && title.trim() !== "") entries.push({ title, level, ...target })
      if (level < maxOutlineDepth) visit(m.FPDFBookmark_GetFirstChild(open.document, bookmark), level + 1)
    }
  }
  visit(m.FPDFBookmark_GetFirstChild(open.document, 0), 1)
  return entries
}

/** The outline's `top` is in PDF space; the layout works top-down from the page's top. */
export const outlineTopDown = (entries: ReadonlyArray<OutlineEntry>, heights: ReadonlyMap<number, number>) =>
  entries.map((entry) => {
    const height = heights.get(entry.page)
    return entry.top === undefined || height === undefined ? entry : { ...entry, top: height - entry.top }
  })
