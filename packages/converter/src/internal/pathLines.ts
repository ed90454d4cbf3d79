/**
 * A table's rules stroked as one path (FrameMaker through Distiller), whose bounds are the whole
 * table: read line by line, its lines count as rules as thin paths do.
 */
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"

const lineTo = 0
const moveTo = 2
/** A line is straight within this many points; longer paths than this are drawings, not rules. */
const straight = 0.5
const maxSegments = 400

/** A line of the path in the page's user space (PDF coordinates, y up). */
export interface PathLine {
  readonly left: number
  readonly bottom: number
  readonly right: number
  readonly top: number
}

/**
 * The lines of a stroked, unfilled path made only of two or more separate straight lines, each
 * horizontal or vertical (a move then one line); anything else (a frame, a filled box, a curve) none.
 */
export const pathLines = (m: Pdfium, path: number): ReadonlyArray<PathLine> => {
  const count = m.FPDFPath_CountSegments(path)
  if (count < 4 || count > maxSegments || count % 2 !== 0) return []
  return P.withBuffer(m, 32, (out) => {
    if (!m.FPDFPath_GetDrawMode(path, out, out + 4) || P.int(m, out) !== 0 || P.int(m, out + 4) === 0) return []
    if (!m.FPDFPageObj_GetMatrix(path, out)) return []
    const [a, b, c, d, e, f] = P.floats(m, out, 6)
    const place = (x: number, y: number): readonly [number, number] => [a! * x + c! * y + e!, b! * x + d! * y + f!]
    const lines: Array<PathLine> = []
    for (let i = 0; i < count; i += 2) {
      const start = m.FPDFPath_GetPathSegment(path, i)
      const end = m.FPDFPath_GetPathSegment(path, i + 1)
      if (m.FPDFPathSegment_GetType(start) !== moveTo || m.FPDFPathSegment_GetType(end) !== lineTo) return []
      if (!m.FPDFPathSegment_GetPoint(start, out + 24, out + 28)) return []
      const [x0, y0] = place(P.float(m, out + 24), P.float(m, out + 28))
      if (!m.FPDFPathSegment_GetPoint(end, out + 24, out + 28)) return []
      const [x1, y1] = place(P.float(m, out + 24), P.float(m, out + 28))
      if (Math.abs(x1 - x0) > straight && Math.abs(y1 - y0) > straight) return []
      lines.push({ left: Math.min(x0, x1), bottom: Math.min(y0, y1), right: Math.max(x0, x1), top: Math.max(y0, y1) })
    }
    return lines
  })
}
