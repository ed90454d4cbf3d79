/**
 * Makes the tagged PDFs of `corpus/tagged/` from their sources in `corpus/tagged/src/`: an HTML
 * page printed by headless Chromium (with its header and footer, which it marks as artifacts), a
 * flat ODT exported by LibreOffice Writer as tagged PDF, a two-column LaTeX paper tagged by
 * tagpdf (LuaLaTeX), and the Chromium print with most of its structure tree cut away (a tree
 * that reaches only part of the text). Authoring time only: it needs `chromium`, `soffice`
 * (libreoffice-writer-nogui) and `lualatex` (texlive-luatex, texlive-latex-extra).
 * Run: `npx tsx test/support/makeTagged.ts`.
 */
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { PDFArray, PDFDict, PDFDocument, PDFName } from "pdf-lib"
import { corpusFile } from "./corpus.js"

// Sources are copied to a neutral folder first: Chromium prints the page's address in its footer.
const work = Path.join(Os.tmpdir(), "pdf-transform-tagged")
mkdirSync(work, { recursive: true })
const source = (name: string): string => {
  const path = Path.join(work, name)
  copyFileSync(corpusFile(`tagged/src/${name}`), path)
  return path
}
const run = (command: string, args: ReadonlyArray<string>) =>
  execFileSync(command, args, { cwd: work, stdio: "ignore" })

try {
  run("chromium", [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    `--print-to-pdf=${corpusFile("tagged/chromium-structure.pdf")}`,
    source("chromium-structure.html")
  ])
  run("soffice", [
    "--headless",
    "--convert-to",
    "pdf:writer_pdf_Export:{\"UseTaggedPDF\":{\"type\":\"boolean\",\"value\":\"true\"}}",
    "--outdir",
    work,
    source("libreoffice-report.fodt")
  ])
  copyFileSync(Path.join(work, "libreoffice-report.pdf"), corpusFile("tagged/libreoffice-report.pdf"))
  // tagpdf resolves its references on the second run.
  for (let i = 0; i < 2; i++) run("lualatex", ["-interaction=nonstopmode", source("latex-two-column.tex")])
  copyFileSync(Path.join(work, "latex-two-column.pdf"), corpusFile("tagged/latex-two-column.pdf"))

  // The Chromium print with its document element keeping its first three kids only.
  const document = await PDFDocument.load(readFileSync(corpusFile("tagged/chromium-structure.pdf")))
  const root = document.catalog.lookup(PDFName.of("StructTreeRoot"), PDFDict)
  const top = root.lookup(PDFName.of("K"))
  const element = top instanceof PDFArray ? top.lookup(0, PDFDict) : top as PDFDict
  const kids = element.lookup(PDFName.of("K"), PDFArray)
  while (kids.size() > 3) kids.remove(kids.size() - 1)
  writeFileSync(corpusFile("tagged/chromium-partial-tree.pdf"), await document.save({ useObjectStreams: false }))
} finally {
  rmSync(work, { recursive: true, force: true })
}
