/**
 * The two PDFium WebAssembly wrappers on bare text extraction (open, then every page's text with
 * FPDFText_GetText), in this process after one warm-up, against `pdftotext -layout` (process
 * start included). What decided between them is printed with the figures.
 */
import { init } from "@embedpdf/pdfium"
import { PDFiumLibrary } from "@hyzyla/pdfium"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const require = createRequire(import.meta.url)
const corpus = fileURLToPath(new URL("../../../corpus/text/", import.meta.url))
const files = ["tracemonkey.pdf", "pdkids.pdf", "TAMReview.pdf", "shared-mime-info-spec.pdf"]
const runs = 5
const utf16 = new TextDecoder("utf-16le")

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const timed = (f: () => number): { ms: number; pages: number } => {
  f()
  const times: Array<number> = []
  let pages = 0
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    pages = f()
    times.push(performance.now() - start)
  }
  return { ms: median(times), pages }
}

const main = async () => {
  let start = performance.now()
  const embed = await init({ wasmBinary: readFileSync(require.resolve("@embedpdf/pdfium/pdfium.wasm")).buffer })
  embed.PDFiumExt_Init()
  const embedInit = performance.now() - start
  start = performance.now()
  const hyzylaDir = Path.dirname(require.resolve("@hyzyla/pdfium"))
  const library = await PDFiumLibrary.init({ wasmBinary: readFileSync(Path.join(hyzylaDir, "pdfium.wasm")).buffer })
  const hyzyla = library["module"]
  const hyzylaInit = performance.now() - start
  console.log(`init: @embedpdf/pdfium ${embedInit.toFixed(0)} ms, @hyzyla/pdfium ${hyzylaInit.toFixed(0)} ms`)

  const embedText = (bytes: Uint8Array): number => {
    const pointer = embed.pdfium.wasmExports.malloc(bytes.length)
    embed.pdfium.HEAPU8.set(bytes, pointer)
    const doc = embed.FPDF_LoadMemDocument(pointer, bytes.length, "")
    const pages = embed.FPDF_GetPageCount(doc)
    for (let i = 0; i < pages; i++) {
      const page = embed.FPDF_LoadPage(doc, i)
      const text = embed.FPDFText_LoadPage(page)
      const count = embed.FPDFText_CountChars(text)
      const buffer = embed.pdfium.wasmExports.malloc((count + 1) * 2)
      embed.FPDFText_GetText(text, 0, count, buffer)
      utf16.decode(embed.pdfium.HEAPU8.subarray(buffer, buffer + count * 2))
      embed.pdfium.wasmExports.free(buffer)
      embed.FPDFText_ClosePage(text)
      embed.FPDF_ClosePage(page)
    }
    embed.FPDF_CloseDocument(doc)
    embed.pdfium.wasmExports.free(pointer)
    return pages
  }
  const hyzylaText = (bytes: Uint8Array): number => {
    const pointer = hyzyla._malloc(bytes.length)
    hyzyla.HEAPU8.set(bytes, pointer)
    const doc = hyzyla._FPDF_LoadMemDocument(pointer, bytes.length, 0)
    const pages = hyzyla._FPDF_GetPageCount(doc)
    for (let i = 0; i < pages; i++) {
      const page = hyzyla._FPDF_LoadPage(doc, i)
      const text = hyzyla._FPDFText_LoadPage(page)
      const count = hyzyla._FPDFText_CountChars(text)
      const buffer = hyzyla._malloc((count + 1) * 2)
      hyzyla._FPDFText_GetText(text, 0, count, buffer)
      utf16.decode(hyzyla.HEAPU8.subarray(buffer, buffer + count * 2))
      hyzyla._free(buffer)
      hyzyla._FPDFText_ClosePage(text)
      hyzyla._FPDF_ClosePage(page)
    }
    hyzyla._FPDF_CloseDocument(doc)
    hyzyla._free(pointer)
    return pages
  }
  console.log(`| document | pages | @embedpdf/pdfium p/s | @hyzyla/pdfium p/s | pdftotext -layout p/s (process) |`)
  console.log(`|---|---|---|---|---|`)
  for (const name of files) {
    const file = Path.join(corpus, name)
    const bytes = new Uint8Array(readFileSync(file))
    const a = timed(() => embedText(bytes))
    const b = timed(() => hyzylaText(bytes))
    const c = timed(() => {
      const result = spawnSync("pdftotext", ["-layout", "-q", file, "/dev/null"])
      if (result.status !== 0) throw new Error(`pdftotext failed on ${file}`)
      return a.pages
    })
    const rate = (m: { ms: number; pages: number }) => (m.pages / (m.ms / 1000)).toFixed(0)
    console.log(`| ${name} | ${a.pages} | ${rate(a)} | ${rate(b)} | ${rate(c)} |`)
  }
  library.destroy()
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
