/**
 * pdf.js access: open a document (destroyed with its scope), read the outline, and read pages one
 * at a time as positioned text items, placed images and, for OCR, a rendering.
 */
import * as Canvas from "@napi-rs/canvas"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createRequire } from "node:module"
import * as Path from "node:path"
import type * as PdfJsModule from "pdfjs-dist/legacy/build/pdf.mjs"
import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs"
import { PdfInvalid, PdfPageFailed, PdfPasswordRequired } from "../Converter.js"
import type * as Document from "../Document.js"
import type { OutlineEntry, PlacedFigure, TextItem } from "./layout.js"

type PdfJs = typeof PdfJsModule

const require = createRequire(import.meta.url)
// pdf.js reads these with fs in Node, so plain directory paths with a trailing separator.
const pdfjsDir = Path.dirname(require.resolve("pdfjs-dist/package.json")) + Path.sep
const cMapUrl = Path.join(pdfjsDir, "cmaps") + Path.sep
const standardFontDataUrl = Path.join(pdfjsDir, "standard_fonts") + Path.sep
const wasmUrl = Path.join(pdfjsDir, "wasm") + Path.sep

// The legacy build bundles core-js, which replaces `Array.prototype.push` with a JavaScript
// version on V8 (for an edge case with non-writable lengths that no code here relies on). That
// polyfill alone costs about 15% of the conversion time, and every other library in the process
// pays it too, so the native method is put back once pdf.js (and its worker code) has loaded.
const nativePush = Array.prototype.push
const restoreNativePush = () => {
  if (Array.prototype.push !== nativePush) {
    Object.defineProperty(Array.prototype, "push", { value: nativePush, writable: true, configurable: true })
  }
}

let pdfjsModule: Promise<PdfJs> | undefined
const loadPdfJs = (): Promise<PdfJs> => (pdfjsModule ??= import("pdfjs-dist/legacy/build/pdf.mjs").then((module) => {
  restoreNativePush()
  return module
}))

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === "string" ? error : String(error)

/** An open document and the pdf.js module it came from. */
export interface OpenDocument {
  readonly pdfjs: PdfJs
  readonly document: PDFDocumentProxy
}

const openError = (error: unknown): PdfPasswordRequired | PdfInvalid => {
  const name = typeof error === "object" && error !== null && "name" in error ? error.name : undefined
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined
  if (name === "PasswordException") return new PdfPasswordRequired({ wrongPassword: code === 2 })
  return new PdfInvalid({ reason: describe(error) })
}

/**
 * Opens the PDF; the document is destroyed when the scope closes, whatever happened. Unless
 * `lenient`, pdf.js is told to stop at errors so a damaged page fails visibly instead of yielding
 * silent partial text; a lenient copy then salvages what it can of the pages that failed.
 *
 * pdf.js detaches the buffer it is given. With `transfer` it gets `bytes` themselves (they are
 * unusable afterwards: for bytes nobody else reads, such as a worker's private copy); otherwise a
 * copy, so the caller's bytes stay usable. On a 40 MB document that copy is 40 MB of peak memory.
 */
export const open = (
  bytes: Uint8Array,
  password: string | undefined,
  options: { readonly lenient: boolean; readonly transfer?: boolean | undefined } = { lenient: false }
): Effect.Effect<OpenDocument, PdfPasswordRequired | PdfInvalid, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const pdfjs = await loadPdfJs()
        const task = pdfjs.getDocument({
          // pdf.js refuses Node's Buffer; a copy is a plain Uint8Array.
          data: options.transfer === true && !Buffer.isBuffer(bytes) ? bytes : new Uint8Array(bytes),
          cMapUrl,
          cMapPacked: true,
          standardFontDataUrl,
          wasmUrl,
          isEvalSupported: false,
          isOffscreenCanvasSupported: false,
          isImageDecoderSupported: false,
          stopAtErrors: !options.lenient,
          verbosity: pdfjs.VerbosityLevel.ERRORS,
          ...(password !== undefined ? { password } : {})
        })
        try {
          const document = await task.promise
          // The first document also loaded pdf.js's worker code, with the same polyfill.
          restoreNativePush()
          return { pdfjs, document }
        } catch (error) {
          await task.destroy()
          throw error
        }
      },
      catch: openError
    }),
    ({ document }) => Effect.promise(() => document.destroy())
  ).pipe(
    Effect.filterOrFail(
      ({ document }) => document.numPages > 0,
      () => new PdfInvalid({ reason: "The document has no pages" })
    )
  )

/** The document's bytes, from pdf.js (a copy): what a lenient second parse reads. */
export const data = (open: OpenDocument): Effect.Effect<Uint8Array, PdfInvalid> =>
  Effect.tryPromise({
    try: () => open.document.getData(),
    catch: (error) => new PdfInvalid({ reason: describe(error) })
  })

/** The title from the document information dictionary, when it has a usable one. */
export const title = (open: OpenDocument): Effect.Effect<string | undefined> =>
  Effect.tryPromise(() => open.document.getMetadata()).pipe(
    Effect.map((metadata) => {
      const info: unknown = metadata.info
      const value = typeof info === "object" && info !== null && "Title" in info ? info.Title : undefined
      return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined
    }),
    Effect.catchAll((error) => Effect.logDebug("PDF metadata unreadable", describe(error)).pipe(Effect.as(undefined)))
  )

interface RawOutlineItem {
  readonly title: string
  readonly dest: string | Array<unknown> | null
  readonly items: ReadonlyArray<RawOutlineItem>
}

/**
 * The bookmarks flattened with their depth and resolved to pages; entries that point nowhere
 * are dropped. An unreadable outline is no outline: headings then come from font sizes.
 */
export const outline = (open: OpenDocument): Effect.Effect<Array<OutlineEntry>> =>
  Effect.tryPromise(async () => {
    const items = (await open.document.getOutline()) as ReadonlyArray<RawOutlineItem> | null
    const entries: Array<OutlineEntry> = []
    const visit = async (list: ReadonlyArray<RawOutlineItem>, level: number) => {
      for (const item of list) {
        const dest = typeof item.dest === "string" ? await open.document.getDestination(item.dest) : item.dest
        const ref = dest?.[0]
        let page: number | undefined
        if (typeof ref === "number") page = ref + 1
        else if (typeof ref === "object" && ref !== null && "num" in ref && "gen" in ref) {
          page = (await open.document.getPageIndex(ref as { num: number; gen: number })) + 1
        }
        const kind = dest?.[1]
        const top = typeof kind === "object" && kind !== null && "name" in kind && kind.name === "XYZ" &&
            typeof dest?.[3] === "number" ?
          dest[3] :
          undefined
        if (page !== undefined && item.title.trim() !== "") {
          entries.push({ title: item.title, level, page, top })
        }
        if (item.items.length > 0) await visit(item.items, level + 1)
      }
    }
    await visit(items ?? [], 1)
    return entries
  }).pipe(
    Effect.catchAll((error) => Effect.logDebug("PDF outline unreadable", describe(error)).pipe(Effect.as([])))
  )

/** The outline's `top` is in PDF space; the layout works top-down from the page's top. */
export const outlineTopDown = (entries: ReadonlyArray<OutlineEntry>, heights: ReadonlyMap<number, number>) =>
  entries.map((entry) => {
    const height = heights.get(entry.page)
    return entry.top === undefined || height === undefined ? entry : { ...entry, top: height - entry.top }
  })

/** What one page gave. */
export interface PageContent {
  readonly width: number
  readonly height: number
  readonly items: Array<TextItem>
  readonly figures: Array<PlacedFigure>
  /** Share of the page area covered by images. */
  readonly imageCoverage: number
}

interface RawTextItem {
  readonly str: string
  readonly dir: string
  readonly width: number
  readonly transform: Array<number>
}

/** Images smaller than this (either side, in pixels) are rules, bullets or noise, not figures. */
const minFigurePixels = 48
/** Figures are scaled down to this many pixels on the longer side to bound EPUB size and memory. */
const maxFigurePixels = 1400

type Matrix = readonly [number, number, number, number, number, number]
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5]
]

interface ImageUse {
  readonly id: string
  readonly matrix: Matrix
}

/** Walks the operator list, following the transformation matrix, to find where images are painted. */
const imageUses = (pdfjs: PdfJs, fnArray: ReadonlyArray<number>, argsArray: ReadonlyArray<unknown>) => {
  const ops = pdfjs.OPS
  const uses: Array<ImageUse> = []
  const stack: Array<Matrix> = []
  let ctm: Matrix = [1, 0, 0, 1, 0, 0]
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i]
    const args = argsArray[i] as ReadonlyArray<unknown> | null
    if (fn === ops.save) stack.push(ctm)
    else if (fn === ops.restore) ctm = stack.pop() ?? ctm
    else if (fn === ops.transform && args !== null) ctm = multiply(ctm, args as unknown as Matrix)
    else if (fn === ops.paintFormXObjectBegin && args !== null) {
      stack.push(ctm)
      const matrix = args[0] as Matrix | null
      if (matrix !== null && matrix.length === 6) ctm = multiply(ctm, matrix)
    } else if (fn === ops.paintFormXObjectEnd) ctm = stack.pop() ?? ctm
    else if (fn === ops.paintImageXObject && args !== null && typeof args[0] === "string") {
      uses.push({ id: args[0], matrix: ctm })
    } else if (fn === ops.paintInlineImageXObject || fn === ops.paintImageMaskXObject) {
      uses.push({ id: "", matrix: ctm })
    }
  }
  return uses
}

interface DecodedImage {
  readonly width: number
  readonly height: number
  readonly kind: number
  readonly data: Uint8Array | Uint8ClampedArray
}

const getObject = (page: PDFPageProxy, id: string): Promise<unknown> =>
  new Promise((resolve) => {
    const objs = id.startsWith("g_") ? page.commonObjs : page.objs
    objs.get(id, resolve)
  })

const isDecodedImage = (value: unknown): value is DecodedImage =>
  typeof value === "object" && value !== null && "width" in value && "height" in value && "kind" in value &&
  "data" in value && (value.data instanceof Uint8Array || value.data instanceof Uint8ClampedArray)

/** pdf.js decodes images to raw pixels (gray 1 bit, RGB or RGBA); the EPUB wants PNG. */
const toPng = (image: DecodedImage): Document.Figure | undefined => {
  const { height, width } = image
  if (width < minFigurePixels || height < minFigurePixels) return undefined
  const rgba = new Uint8ClampedArray(width * height * 4)
  const src = image.data
  if (image.kind === 1) {
    const rowBytes = (width + 7) >> 3
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = (src[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1
        const o = (y * width + x) * 4
        const v = bit ? 255 : 0
        rgba[o] = v
        rgba[o + 1] = v
        rgba[o + 2] = v
        rgba[o + 3] = 255
      }
    }
  } else if (image.kind === 2) {
    for (let i = 0, o = 0; o < rgba.length; i += 3, o += 4) {
      rgba[o] = src[i]!
      rgba[o + 1] = src[i + 1]!
      rgba[o + 2] = src[i + 2]!
      rgba[o + 3] = 255
    }
  } else if (image.kind === 3) {
    rgba.set(src.subarray(0, rgba.length))
  } else {
    return undefined
  }
  const full = Canvas.createCanvas(width, height)
  full.getContext("2d").putImageData(new Canvas.ImageData(rgba, width, height), 0, 0)
  const scale = Math.min(1, maxFigurePixels / Math.max(width, height))
  if (scale === 1) return { _tag: "Figure", png: full.encodeSync("png"), width, height }
  const w = Math.max(1, Math.round(width * scale))
  const h = Math.max(1, Math.round(height * scale))
  const small = Canvas.createCanvas(w, h)
  small.getContext("2d").drawImage(full, 0, 0, w, h)
  return { _tag: "Figure", png: small.encodeSync("png"), width: w, height: h }
}

/**
 * Reads one page: its text items in top-down page coordinates and, when asked (EPUB) or when the
 * text layer is empty (a scan?), the images it paints. A page failure is a `PdfPageFailed`.
 */
export const readPage = (
  open: OpenDocument,
  pageNumber: number,
  options: { readonly figures: boolean }
): Effect.Effect<PageContent, PdfPageFailed, Scope.Scope> =>
  Effect.gen(function*() {
    const fail = (error: unknown) => new PdfPageFailed({ page: pageNumber, reason: describe(error) })
    const page = yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => open.document.getPage(pageNumber), catch: fail }),
      // Frees the page's decoded fonts and images: memory stays bounded on long documents.
      (page) => Effect.sync(() => page.cleanup())
    )
    const viewport = page.getViewport({ scale: 1 })
    // pdf.js would apply NFKC before its bidi reordering, which reverses the letters of Arabic
    // ligatures; the layout normalises after the order is known.
    const content = yield* Effect.tryPromise({
      try: () => page.getTextContent({ disableNormalization: true }),
      catch: fail
    })
    const items: Array<TextItem> = []
    for (const raw of content.items as ReadonlyArray<RawTextItem | { readonly type: string }>) {
      if (!("str" in raw) || raw.str === "") continue
      const [a, b, c, d, e, f] = raw.transform as unknown as Matrix
      const length = Math.hypot(a, b) || 1
      const [x0, y0] = viewport.convertToViewportPoint(e, f) as [number, number]
      const [x1] = viewport.convertToViewportPoint(e + (raw.width * a) / length, f + (raw.width * b) / length) as [
        number,
        number
      ]
      items.push({
        text: raw.str,
        x: Math.min(x0, x1),
        y: y0,
        width: Math.abs(x1 - x0),
        size: Math.hypot(c, d),
        rtl: raw.dir === "rtl"
      })
    }
    const empty = !items.some((item) => /[\p{L}\p{N}]/u.test(item.text))
    const figures: Array<PlacedFigure> = []
    let imageCoverage = 0
    if (options.figures || empty) {
      const operators = yield* Effect.tryPromise({ try: () => page.getOperatorList(), catch: fail })
      const pageArea = viewport.width * viewport.height
      for (const use of imageUses(open.pdfjs, operators.fnArray, operators.argsArray)) {
        const corners = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([u, v]) =>
          viewport.convertToViewportPoint(
            use.matrix[0] * u! + use.matrix[2] * v! + use.matrix[4],
            use.matrix[1] * u! + use.matrix[3] * v! + use.matrix[5]
          ) as [number, number]
        )
        const xs = corners.map((p) => p[0])
        const ys = corners.map((p) => p[1])
        const box = { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) }
        const visibleWidth = Math.min(box.x1, viewport.width) - Math.max(box.x0, 0)
        const visibleHeight = Math.min(box.y1, viewport.height) - Math.max(box.y0, 0)
        if (visibleWidth > 0 && visibleHeight > 0) {
          imageCoverage = Math.max(imageCoverage, (visibleWidth * visibleHeight) / pageArea)
        }
        if (!options.figures || empty || use.id === "") continue
        const object = yield* Effect.promise(() => getObject(page, use.id))
        if (!isDecodedImage(object)) continue
        const figure = yield* Effect.try({ try: () => toPng(object), catch: fail })
        if (figure !== undefined) figures.push({ figure, ...box })
      }
    }
    return { width: viewport.width, height: viewport.height, items, figures, imageCoverage }
  })

/** Dots per inch for OCR: tesseract reads best at about 300. */
const ocrDpi = 300
/** Caps the rendering so a poster-sized page does not take gigabytes. */
const maxOcrPixels = 4200

/** Renders the page to PNG for OCR, with the scale from page points to pixels. */
export const renderPng = (
  open: OpenDocument,
  pageNumber: number
): Effect.Effect<{ readonly png: Uint8Array; readonly scale: number }, unknown, Scope.Scope> =>
  Effect.gen(function*() {
    const page = yield* Effect.acquireRelease(
      Effect.tryPromise(() => open.document.getPage(pageNumber)),
      (page) => Effect.sync(() => page.cleanup())
    )
    const base = page.getViewport({ scale: 1 })
    const scale = Math.min(ocrDpi / 72, maxOcrPixels / Math.max(base.width, base.height))
    const viewport = page.getViewport({ scale })
    const canvas = Canvas.createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height))
    const context = canvas.getContext("2d")
    context.fillStyle = "#ffffff"
    context.fillRect(0, 0, canvas.width, canvas.height)
    yield* Effect.tryPromise(() =>
      page.render({
        canvas: canvas as unknown as Parameters<PDFPageProxy["render"]>[0]["canvas"],
        canvasContext: context as unknown as Parameters<PDFPageProxy["render"]>[0]["canvasContext"],
        viewport
      }).promise
    )
    const png = yield* Effect.tryPromise(() => canvas.encode("png"))
    return { png, scale }
  })

/** Frees the document's caches (fonts, images) between pages. */
export const cleanup = (open: OpenDocument): Effect.Effect<void> =>
  Effect.tryPromise(() => open.document.cleanup()).pipe(
    Effect.catchAll((error) => Effect.logDebug("pdf.js cleanup failed", describe(error)))
  )

/** Pages of the document (pdf.js reads the count from the page tree). */
export const pageCount = (open: OpenDocument): number => open.document.numPages
