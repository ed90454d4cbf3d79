/**
 * PDFium in WebAssembly: one module instance per thread, documents read from the caller's bytes
 * through a callback (never copied into the heap), and helpers for the C API's memory.
 */
import type { WrappedPdfiumModule } from "@embedpdf/pdfium"
import { init } from "@embedpdf/pdfium"
import * as Effect from "effect/Effect"
import { compiledModule, wasm } from "./pdfiumWasm.js"

/** C functions called per page, font, character or run, as exported: `cwrap`'s layers cost too much there (README). */
export interface Direct {
  readonly FPDF_LoadPage: (document: number, index: number) => number
  readonly FPDF_ClosePage: (page: number) => void
  readonly FPDF_GetPageWidthF: (page: number) => number
  readonly FPDF_GetPageHeightF: (page: number) => number
  readonly FPDFText_LoadPage: (page: number) => number
  readonly FPDFText_ClosePage: (textPage: number) => void
  readonly FPDFText_CountChars: (textPage: number) => number
  readonly FPDFText_GetText: (textPage: number, start: number, count: number, buffer: number) => number
  readonly FPDFPage_CountObjects: (page: number) => number
  readonly FPDFFont_GetFlags: (font: number) => number
  readonly FPDFFont_GetWeight: (font: number) => number
  readonly FPDFFont_GetBaseFontName: (font: number, buffer: number, length: number) => number
  readonly FPDFFont_GetItalicAngle: (font: number, angle: number) => number
  readonly FPDFText_GetTextObject: (textPage: number, index: number) => number
  readonly FPDFText_GetCharOrigin: (textPage: number, index: number, x: number, y: number) => number
  readonly FPDFText_GetLooseCharBox: (textPage: number, index: number, rect: number) => number
  readonly FPDFText_GetMatrix: (textPage: number, index: number, matrix: number) => number
  readonly FPDFText_GetFontSize: (textPage: number, index: number) => number
  readonly FPDFText_HasUnicodeMapError: (textPage: number, index: number) => number
  readonly FPDFTextObj_GetFont: (textObject: number) => number
  readonly FPDFPage_GetObject: (page: number, index: number) => number
  readonly FPDFPageObj_GetType: (object: number) => number
  readonly FPDFPageObj_GetBounds: (object: number, left: number, bottom: number, right: number, top: number) => number
  readonly FPDF_PageToDevice: (
    page: number,
    startX: number,
    startY: number,
    sizeX: number,
    sizeY: number,
    rotate: number,
    pageX: number,
    pageY: number,
    deviceX: number,
    deviceY: number
  ) => number
}

const directNames: ReadonlyArray<keyof Direct> = [
  "FPDF_LoadPage",
  "FPDF_ClosePage",
  "FPDF_GetPageWidthF",
  "FPDF_GetPageHeightF",
  "FPDFText_LoadPage",
  "FPDFText_ClosePage",
  "FPDFText_CountChars",
  "FPDFText_GetText",
  "FPDFPage_CountObjects",
  "FPDFFont_GetFlags",
  "FPDFFont_GetWeight",
  "FPDFFont_GetBaseFontName",
  "FPDFFont_GetItalicAngle",
  "FPDFText_GetTextObject",
  "FPDFText_GetCharOrigin",
  "FPDFText_GetLooseCharBox",
  "FPDFText_GetMatrix",
  "FPDFText_GetFontSize",
  "FPDFText_HasUnicodeMapError",
  "FPDFTextObj_GetFont",
  "FPDFPage_GetObject",
  "FPDFPageObj_GetType",
  "FPDFPageObj_GetBounds",
  "FPDF_PageToDevice"
]

/** The bytes of the documents open in one module, by the number PDFium hands back to the read callback. */
interface Files {
  readonly bytes: Map<number, Uint8Array>
  next: number
  readonly getBlock: number
}

/** The module, its exported C functions (wrapped, and the hot ones direct), its heap and open files. */
export type Pdfium = WrappedPdfiumModule & { readonly direct: Direct; readonly files: Files }

/** The WebAssembly heap only grows: past this size, once no document is open, the next one gets a fresh instance. */
const maxHeapBytes = 256 * 1024 * 1024

let instance: Promise<Pdfium> | undefined
let openDocuments = 0

/**
 * The module's exports as the C functions `names`, called directly (see `Direct`); a missing one
 * is a defect of the PDFium build, thrown when the module is set up.
 */
export const exportedFunctions = <T extends object>(exports: object, names: ReadonlyArray<keyof T & string>): T => {
  const missing = names.filter((name) => !(name in exports) || typeof Reflect.get(exports, name) !== "function")
  if (missing.length > 0) throw new Error(`@embedpdf/pdfium does not export ${missing.join(", ")}`)
  // Checked just above: each name is an exported function of the signature PDFium's headers give.
  return exports as T
}

const directOf = (exports: object): Direct => exportedFunctions<Direct>(exports, directNames)

const withFiles = (module: WrappedPdfiumModule): Pdfium => {
  const bytes = new Map<number, Uint8Array>()
  // FPDF_FILEACCESS.m_GetBlock(param, position, buffer, size): copies a block into PDFium's buffer.
  const getBlock = module.pdfium.addFunction((param: number, position: number, buffer: number, size: number) => {
    const file = bytes.get(param)
    const start = position >>> 0
    const end = start + (size >>> 0)
    if (file === undefined || end > file.length) return 0
    module.pdfium.HEAPU8.set(file.subarray(start, end), buffer)
    return 1
  }, "iiiii")
  return Object.assign(module, { direct: directOf(module.pdfium.wasmExports), files: { bytes, next: 1, getBlock } })
}

const load = (): Promise<Pdfium> =>
  instance ??= init({
    instantiateWasm: (imports, receive) => {
      const created = new wasm.Instance(compiledModule(), imports)
      receive(created)
      return created.exports
    }
  }).then((module) => {
    module.PDFiumExt_Init()
    return withFiles(module)
  })

/** The thread's module, counted as in use until `release`. */
export const acquire: Effect.Effect<Pdfium> = Effect.promise(load).pipe(Effect.tap(() => {
  openDocuments++
}))

/** A document is done with the module: past `maxHeapBytes`, the next one gets a fresh instance. */
export const release = (module: Pdfium): Effect.Effect<void> =>
  Effect.sync(() => {
    openDocuments--
    if (openDocuments === 0 && module.pdfium.HEAPU8.length > maxHeapBytes) instance = undefined
  })

/** Size of FPDF_FILEACCESS in wasm32: m_FileLen, m_GetBlock and m_Param, 4 bytes each. */
const fileAccessBytes = 12

/** An FPDF_FILEACCESS reading `bytes` where they are (no copy in the heap); keep them unchanged until `closeFile`. */
export const openFile = (module: Pdfium, bytes: Uint8Array): number => {
  const id = module.files.next++
  module.files.bytes.set(id, bytes)
  const access = module.pdfium.wasmExports.malloc(fileAccessBytes)
  module.pdfium.HEAPU32.set([bytes.length, module.files.getBlock, id], access / 4)
  return access
}

/** Frees what `openFile` made, once no document reads from it. */
export const closeFile = (module: Pdfium, access: number): void => {
  module.files.bytes.delete(module.pdfium.HEAPU32[access / 4 + 2]!)
  module.pdfium.wasmExports.free(access)
}

/** Runs `f` with `bytes` bytes of the module's heap, freed afterwards. */
export const withBuffer = <A>(module: Pdfium, bytes: number, f: (pointer: number) => A): A => {
  const pointer = module.pdfium.wasmExports.malloc(Math.max(8, bytes))
  try {
    return f(pointer)
  } finally {
    module.pdfium.wasmExports.free(pointer)
  }
}

const utf16 = new TextDecoder("utf-16le")

/** `units` UTF-16 code units at `pointer` (a trailing NUL dropped). */
export const readUtf16 = (module: Pdfium, pointer: number, units: number): string => {
  const text = utf16.decode(module.pdfium.HEAPU8.subarray(pointer, pointer + units * 2))
  return text.endsWith("\0") ? text.slice(0, -1) : text
}

/** A string the C API writes into a buffer after telling its length (`FPDF_GetMetaText`): asked twice. */
export const readString = (module: Pdfium, get: (buffer: number, length: number) => number): string => {
  const length = get(0, 0)
  if (length <= 2) return ""
  return withBuffer(module, length, (buffer) => readUtf16(module, buffer, get(buffer, length) / 2))
}

export const double = (module: Pdfium, pointer: number): number => module.pdfium.HEAPF64[pointer / 8]!

export const doubles = (module: Pdfium, pointer: number, count: number): Float64Array =>
  module.pdfium.HEAPF64.slice(pointer / 8, pointer / 8 + count)

export const float = (module: Pdfium, pointer: number): number => module.pdfium.HEAPF32[pointer / 4]!

export const floats = (module: Pdfium, pointer: number, count: number): Float32Array =>
  module.pdfium.HEAPF32.slice(pointer / 4, pointer / 4 + count)

export const int = (module: Pdfium, pointer: number): number => module.pdfium.HEAP32[pointer / 4]!

export const ints = (module: Pdfium, pointer: number, count: number): Int32Array =>
  module.pdfium.HEAP32.slice(pointer / 4, pointer / 4 + count)
