/**
 * PDFium compiled to WebAssembly (`@embedpdf/pdfium`): one module instance per thread, reused
 * across documents, and small helpers for the C API's memory (buffers, out-parameters, UTF-16).
 */
import type { WrappedPdfiumModule } from "@embedpdf/pdfium"
import { init } from "@embedpdf/pdfium"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"

/** The module, its exported C functions and its heap. */
export type Pdfium = WrappedPdfiumModule

const require = createRequire(import.meta.url)

/**
 * The WebAssembly heap only grows: a large document leaves the module holding what it needed.
 * Past this size, once no document is open, the instance is dropped (the garbage collector frees
 * its memory) and the next document starts a fresh one (about 50 ms).
 */
const maxHeapBytes = 256 * 1024 * 1024

let instance: Promise<Pdfium> | undefined
let openDocuments = 0

const load = (): Promise<
  Pdfium
> => (instance ??= init({ wasmBinary: readFileSync(require.resolve("@embedpdf/pdfium/pdfium.wasm")).buffer }).then(
  (module) => {
    module.PDFiumExt_Init()
    return module
  }
))

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

/**
 * A string the C API writes into a caller's buffer after telling its length in bytes
 * (`FPDF_GetMetaText`, `FPDFBookmark_GetTitle`): asked once for the length, then for the text.
 */
export const readString = (module: Pdfium, get: (buffer: number, length: number) => number): string => {
  const length = get(0, 0)
  if (length <= 2) return ""
  return withBuffer(module, length, (buffer) => readUtf16(module, buffer, get(buffer, length) / 2))
}

/** The `count` doubles at `pointer`. */
export const doubles = (module: Pdfium, pointer: number, count: number): Float64Array =>
  module.pdfium.HEAPF64.slice(pointer / 8, pointer / 8 + count)

/** The `count` floats at `pointer`. */
export const floats = (module: Pdfium, pointer: number, count: number): Float32Array =>
  module.pdfium.HEAPF32.slice(pointer / 4, pointer / 4 + count)

/** The `count` 32-bit integers at `pointer`. */
export const ints = (module: Pdfium, pointer: number, count: number): Int32Array =>
  module.pdfium.HEAP32.slice(pointer / 4, pointer / 4 + count)
