import { init } from "@embedpdf/pdfium"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
const require = createRequire(import.meta.url)
const m = await init({ wasmBinary: readFileSync(require.resolve("@embedpdf/pdfium/pdfium.wasm")).buffer })
m.PDFiumExt_Init()
const bytes = readFileSync(process.argv[2]!)
const p = m.pdfium.wasmExports.malloc(bytes.length)
m.pdfium.HEAPU8.set(bytes, p)
const doc = m.FPDF_LoadMemDocument(p, bytes.length, process.argv[3] ?? "")
console.log("doc", doc, "err", m.FPDF_GetLastError())
const pages = m.FPDF_GetPageCount(doc)
for (let i = 0; i < pages; i++) {
  const page = m.FPDF_LoadPage(doc, i)
  if (page === 0) { console.log(i + 1, "LOAD FAILED"); continue }
  const tp = m.FPDFText_LoadPage(page)
  const n = m.FPDFText_CountChars(tp)
  const buf = m.pdfium.wasmExports.malloc((n + 1) * 2)
  const written = m.FPDFText_GetText(tp, 0, n, buf)
  const text = new TextDecoder("utf-16le").decode(m.pdfium.HEAPU8.subarray(buf, buf + Math.max(0, written - 1) * 2))
  let err = 0
  for (let c = 0; c < n; c++) err += m.FPDFText_HasUnicodeMapError(tp, c)
  const d = m.pdfium.wasmExports.malloc(64)
  m.FPDFText_GetMatrix(tp, 0, d)
  const mat = Array.from(m.pdfium.HEAPF32.subarray(d / 4, d / 4 + 6)).map((v) => v.toFixed(2))
  console.log(i + 1, "chars", n, "maperr", err, "size0", m.FPDFText_GetFontSize(tp, 0).toFixed(2), "m", mat.join(","), JSON.stringify(text.slice(0, 70)))
}
