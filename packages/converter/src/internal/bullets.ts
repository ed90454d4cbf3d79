/**
 * A page's paths, read once per object: bullets drawn as shapes (browsers, beamer) come back as "•"
 * runs where they mark a run's start, so the list rules see them; thin paths are a table's rules,
 * large ones the panels a listing may be set on.
 */
import type { TextItem } from "./layout.js"
import type { Box, Rule } from "./layout/model.js"
import { pathLines } from "./pathLines.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"

const pathObject = 2
const imageObject = 3
/** Image, shading and form objects: a bullet drawn as a picture or as a shaded ball (beamer's). */
const pictureObjects = new Set([3, 4, 5])
/** A marker's side, in points: smaller is a dot of a leader, larger an icon or a box. */
const minSide = 1.5
const maxSide = 8
/** A picture may be as large as a ball a number is set on. */
const maxPictureSide = 16
/** Pages with more small shapes than this are drawings (chart markers), not lists. */
const maxCandidates = 400
/** A rule is at most this thick and at least this long (points). */
const maxThickness = 2
const minLength = 12
/** Pages with more rules than this are drawings (a plot's grid), not tables. */
const maxRules = 600
/** A panel (a shaded or framed box a listing may be set on) is at least this wide and high (points). */
const minPanelWidth = 40
const minPanelHeight = 10
/** Pages with more panels than this are drawings (a chart's bars). */
const maxPanels = 200

/** A page's paths as the layout reads them: small square-ish shapes and rules (top-down coordinates). */
export interface PagePaths {
  readonly shapes: ReadonlyArray<Box>
  readonly rules: ReadonlyArray<Rule>
  /** Paths large enough to hold lines of text: shaded boxes and frames. */
  readonly panels: ReadonlyArray<Box>
}

/** Whether a box is the size and shape of a list marker: small and roughly square. */
const isMarkerBox = (w: number, h: number, max = maxSide): boolean =>
  w >= minSide && h >= minSide && w <= max && h <= max && Math.abs(w - h) <= 0.3 * Math.max(w, h)

/** The box between two opposite corners. */
const turned = (a: readonly [number, number], b: readonly [number, number]): Box => ({
  x0: Math.min(a[0], b[0]),
  x1: Math.max(a[0], b[0]),
  y0: Math.min(a[1], b[1]),
  y1: Math.max(a[1], b[1])
})

/** The small shapes and the rules of a page, one type and one bounds call per path object. */
export const pagePaths = (m: Pdfium, page: number, width: number, height: number): PagePaths =>
  P.withBuffer(m, 24, (out) => {
    const shapes: Array<Box> = []
    const rules: Array<Rule> = []
    const panels: Array<Box> = []
    const toPage = (x: number, y: number): readonly [number, number] => {
      m.direct.FPDF_PageToDevice(page, 0, 0, Math.ceil(width * 16), Math.ceil(height * 16), 0, x, y, out + 16, out + 20)
      return [P.int(m, out + 16) / 16, P.int(m, out + 20) / 16]
    }
    // A page whose /Rotate turns it a quarter: its paths' bounds are turned onto the page as shown.
    const rotated = toPage(0, 0)[1] !== toPage(100, 0)[1]
    const count = m.direct.FPDFPage_CountObjects(page)
    for (let i = 0; i < count && (shapes.length <= maxCandidates || rules.length <= maxRules); i++) {
      const object = m.direct.FPDFPage_GetObject(page, i)
      const type = m.direct.FPDFPageObj_GetType(object)
      if (type !== pathObject && !pictureObjects.has(type)) continue
      if (!m.direct.FPDFPageObj_GetBounds(object, out, out + 4, out + 8, out + 12)) continue
      const [left, bottom, right, top] = P.floats(m, out, 4)
      const place = (l: number, b: number, r: number, t: number): Box =>
        rotated ? turned(toPage(l, b), toPage(r, t)) : { x0: l, x1: r, y0: height - t, y1: height - b }
      const box = place(left!, bottom!, right!, top!)
      const w = box.x1 - box.x0
      const h = box.y1 - box.y0
      const lines = type === pathObject && w >= minLength && h >= minLength ? pathLines(m, object) : []
      if (type === imageObject && Math.min(w, h) <= maxThickness && Math.max(w, h) >= minLength) {
        // A rule painted as a stretched one-pixel image (dvips through Ghostscript).
        if (rules.length <= maxRules) rules.push({ ...box, horizontal: w > h })
      } else if (type !== pathObject) {
        if (shapes.length <= maxCandidates && isMarkerBox(w, h, maxPictureSide)) shapes.push(box)
      } else if (h <= maxThickness && w >= minLength) {
        if (rules.length <= maxRules) rules.push({ ...box, horizontal: true })
      } else if (w <= maxThickness && h >= minLength) {
        if (rules.length <= maxRules) rules.push({ ...box, horizontal: false })
      } else if (lines.length > 0) {
        for (const line of lines) {
          const ruled = place(line.left, line.bottom, line.right, line.top)
          const horizontal = ruled.x1 - ruled.x0 >= ruled.y1 - ruled.y0
          const long = Math.max(ruled.x1 - ruled.x0, ruled.y1 - ruled.y0) >= minLength
          if (long && rules.length <= maxRules) rules.push({ ...ruled, horizontal })
        }
      } else if (shapes.length <= maxCandidates && isMarkerBox(w, h)) {
        shapes.push(box)
      } else if (w >= minPanelWidth && h >= minPanelHeight && panels.length <= maxPanels) {
        panels.push(box)
      }
    }
    return {
      shapes,
      rules: rules.length > maxRules ? [] : rules,
      panels: panels.length > maxPanels ? [] : panels
    }
  })

/** A page's runs ordered by baseline, so each shape looks only at the runs of its own height. */
interface ByBaseline {
  readonly items: ReadonlyArray<TextItem>
  /** Indices into `items`, by `y`. */
  readonly order: Int32Array
  readonly maxSize: number
}

const byBaseline = (items: ReadonlyArray<TextItem>): ByBaseline => ({
  items,
  order: Int32Array.from(items.keys()).sort((a, b) => items[a]!.y - items[b]!.y),
  maxSize: items.reduce((max, item) => Math.max(max, item.size), 0)
})

/** The first run in the page's order with `above < y <= below` that `fits`. */
const firstBetween = (
  runs: ByBaseline,
  above: number,
  below: number,
  fits: (item: TextItem) => boolean
): TextItem | undefined => {
  const { items, order } = runs
  let low = 0
  let high = order.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (items[order[middle]!]!.y <= above) low = middle + 1
    else high = middle
  }
  let first = -1
  for (let i = low; i < order.length && items[order[i]!]!.y <= below; i++) {
    const index = order[i]!
    if ((first < 0 || index < first) && fits(items[index]!)) first = index
  }
  return first < 0 ? undefined : items[first]
}

/** A number set on a shape (beamer's numbered balls) is an item's number: "1" becomes "1.". */
const numberOn = (shape: Box, runs: ByBaseline): TextItem | undefined => {
  const number = firstBetween(
    runs,
    shape.y0,
    shape.y1 + 0.5,
    (item) => item.x >= shape.x0 - 0.5 && item.x + item.width <= shape.x1 + 0.5 && /^\d{1,2}$/.test(item.text)
  )
  return number === undefined ? undefined : { ...number, text: ".", x: number.x + number.width, width: 0 }
}

/** How far (points) a shape may stick out of another and still be drawn inside it. */
const insideSlack = 0.5

const inside = (inner: Box, outer: Box): boolean =>
  inner.x0 >= outer.x0 - insideSlack && inner.x1 <= outer.x1 + insideSlack &&
  inner.y0 >= outer.y0 - insideSlack && inner.y1 <= outer.y1 + insideSlack

const area = (box: Box): number => (box.x1 - box.x0) * (box.y1 - box.y0)

/**
 * "•" runs for the shapes that mark the start of a text run (on its line, just left of it), and
 * "." after a number set on a shape.
 */
export const shapeBullets = (shapes: ReadonlyArray<Box>, items: ReadonlyArray<TextItem>): Array<TextItem> => {
  if (shapes.length === 0 || shapes.length > maxCandidates) return []
  const runs = byBaseline(items)
  const bullets: Array<TextItem> = []
  // A ball shaded by stacking smaller and smaller discs (beamer through dvips and Ghostscript) is
  // one marker: a shape inside one that made a marker makes none.
  const marked: Array<Box> = []
  for (const shape of [...shapes].sort((a, b) => area(b) - area(a))) {
    if (marked.some((outer) => inside(shape, outer))) continue
    const numbered = numberOn(shape, runs)
    if (numbered !== undefined) {
      bullets.push(numbered)
      marked.push(shape)
      continue
    }
    if (shape.x1 - shape.x0 > maxSide) continue
    const middle = (shape.y0 + shape.y1) / 2
    // A run whose baseline is below the shape's middle by less than 0.8 of its size.
    const item = firstBetween(
      runs,
      middle,
      middle + 0.8 * runs.maxSize,
      (item) =>
        item.x >= shape.x1 && item.x - shape.x1 <= 1.5 * item.size &&
        middle > item.y - 0.8 * item.size && shape.x1 - shape.x0 < 0.6 * item.size
    )
    if (item === undefined) continue
    marked.push(shape)
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
