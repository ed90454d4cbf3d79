/**
 * List bullets drawn as shapes: Chromium (and other HTML printers) paint a list's disc, circle or
 * square marker as a small path, not as text, so the text layer alone shows no list. A small,
 * roughly square path just left of the start of a text run, within that run's line, is given back
 * as a "•" run on the run's baseline, and the list rules read it as any other bullet.
 */
import type { TextItem } from "./layout.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"

const pathObject = 2
/** A marker's side, in points: smaller is a dot of a leader, larger an icon or a box. */
const minSide = 1.5
const maxSide = 8
/** Pages with more small shapes than this are drawings (chart markers), not lists. */
const maxCandidates = 400

interface Box {
  readonly x0: number
  readonly x1: number
  readonly y0: number
  readonly y1: number
}

/** The small square-ish paths of a page (top-down coordinates). */
const smallShapes = (m: Pdfium, page: number, height: number): Array<Box> =>
  P.withBuffer(m, 16, (out) => {
    const shapes: Array<Box> = []
    const count = m.direct.FPDFPage_CountObjects(page)
    for (let i = 0; i < count && shapes.length <= maxCandidates; i++) {
      const object = m.direct.FPDFPage_GetObject(page, i)
      if (m.direct.FPDFPageObj_GetType(object) !== pathObject) continue
      if (!m.direct.FPDFPageObj_GetBounds(object, out, out + 4, out + 8, out + 12)) continue
      const [left, bottom, right, top] = P.floats(m, out, 4)
      const w = right! - left!
      const h = top! - bottom!
      if (w < minSide || h < minSide || w > maxSide || h > maxSide || Math.abs(w - h) > 0.3 * Math.max(w, h)) continue
      shapes.push({ x0: left!, x1: right!, y0: height - top!, y1: height - bottom! })
    }
    return shapes
  })

/** "•" runs for the shapes that mark the start of a text run: on its line, just left of it. */
export const shapeBullets = (
  m: Pdfium,
  page: number,
  height: number,
  items: ReadonlyArray<TextItem>
): Array<TextItem> => {
  const shapes = smallShapes(m, page, height)
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
