/**
 * A page's paths, read once per object (type and bounds): list bullets drawn as shapes, and the
 * rules a table is drawn with. Chromium (and other HTML printers) paint a list's disc, circle or
 * square marker as a small path, not as text, so the text layer alone shows no list. A small,
 * roughly square path just left of the start of a text run, within that run's line, is given back
 * as a "•" run on the run's baseline, and the list rules read it as any other bullet. Thin
 * horizontal and vertical paths (and the edges of thin rectangles) are the page's rules.
 */
import type { TextItem } from "./layout.js"
import type { Rule } from "./layout/model.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"

const pathObject = 2
/** A marker's side, in points: smaller is a dot of a leader, larger an icon or a box. */
const minSide = 1.5
const maxSide = 8
/** Pages with more small shapes than this are drawings (chart markers), not lists. */
const maxCandidates = 400
/** A rule is at most this thick and at least this long (points). */
const maxThickness = 2
const minLength = 12
/** Pages with more rules than this are drawings (a plot's grid), not tables. */
const maxRules = 600

interface Box {
  readonly x0: number
  readonly x1: number
  readonly y0: number
  readonly y1: number
}

/** A page's paths as the layout reads them: small square-ish shapes and rules (top-down coordinates). */
export interface PagePaths {
  readonly shapes: ReadonlyArray<Box>
  readonly rules: ReadonlyArray<Rule>
}

/** The small shapes and the rules of a page, one type and one bounds call per path object. */
export const pagePaths = (m: Pdfium, page: number, height: number): PagePaths =>
  P.withBuffer(m, 16, (out) => {
    const shapes: Array<Box> = []
    const rules: Array<Rule> = []
    const count = m.direct.FPDFPage_CountObjects(page)
    for (let i = 0; i < count && (shapes.length <= maxCandidates || rules.length <= maxRules); i++) {
      const object = m.direct.FPDFPage_GetObject(page, i)
      if (m.direct.FPDFPageObj_GetType(object) !== pathObject) continue
      if (!m.direct.FPDFPageObj_GetBounds(object, out, out + 4, out + 8, out + 12)) continue
      const [left, bottom, right, top] = P.floats(m, out, 4)
      const w = right! - left!
      const h = top! - bottom!
      const box = { x0: left!, x1: right!, y0: height - top!, y1: height - bottom! }
      if (h <= maxThickness && w >= minLength) {
        if (rules.length <= maxRules) rules.push({ ...box, horizontal: true })
      } else if (w <= maxThickness && h >= minLength) {
        if (rules.length <= maxRules) rules.push({ ...box, horizontal: false })
      } else if (
        shapes.length <= maxCandidates && w >= minSide && h >= minSide && w <= maxSide && h <= maxSide &&
        Math.abs(w - h) <= 0.3 * Math.max(w, h)
      ) {
        shapes.push(box)
      }
    }
    return { shapes, rules: rules.length > maxRules ? [] : rules }
  })

/** "•" runs for the shapes that mark the start of a text run: on its line, just left of it. */
export const shapeBullets = (shapes: ReadonlyArray<Box>, items: ReadonlyArray<TextItem>): Array<TextItem> => {
  if (shapes.length === 0 || shapes.length > maxCandidates) return []
  const bullets: Array<TextItem> = []
  for (const shape of shapes) {
    const middle = (shape.y0 + shape.y1) / 2
    const item = items.find((item) =>
      item.x >= shape.x1 && item.x - shape.x1 <= 1.5 * item.size &&
      middle < item.y && middle > item.y - 0.8 * item.size && shape.x1 - shape.x0 < 0.6 * item.size
    )
    if (item === undefined) continue
    bullets.push({
      text: "•",
      x: shape.x0,
      y: item.y,
      width: shape.x1 - shape.x0,
      size: item.size,
      rtl: false,
      style: 0
    })
  }
  return bullets
}
