/**
 * Regenerates `corpus/structure/`: documents whose source we have, turned into PDF, with the
 * Markdown a reader should get back as their ground truth. Not run by CI (it needs Debian's
 * `pandoc`, `chromium` and `libreoffice-writer`, `r-doc-pdf` with `r-doc-html` for the R manuals,
 * and Debian's package archive for the other manuals); the benchmark
 * reads the committed files.
 *
 * - READMEs of permissively licensed packages (copied into `corpus/structure/src/`): GFM ->
 *   standalone HTML (pandoc, images dropped since nothing may be fetched, some with numbered
 *   sections) -> PDF (headless Chromium). The ground truth is that HTML turned back into GFM by
 *   pandoc, so it holds exactly what the page shows (section numbers included).
 * - The same READMEs as a word processor prints them: that HTML -> DOCX (pandoc) -> PDF
 *   (LibreOffice Writer, `soffice --convert-to pdf`).
 * - R's manuals, which Debian ships as PDF and as HTML made from one Texinfo source: the PDF as
 *   it is, and the HTML (navigation bars and indices removed, as they are not the text) turned
 *   into GFM by pandoc.
 * - Manuals of other Debian packages, each shipped as PDF and HTML from one source (texinfo,
 *   Sphinx, DocBook, LaTeX): fetched with `apt-get download` at the pinned version
 *   (`structureSources.ts`), the PDF as it is, the HTML pages in reading order, cleaned the same way.
 *
 * Run: `pnpm --filter @pdf-transform/converter exec tsx bench/structureCorpus.ts [names...]` (all
 * documents, or those named).
 */
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { structureDocuments } from "./structureSet.js"
import { cleanTexinfo, htmlOf, pdfOf, withPackage } from "./structureSources.js"

const corpus = fileURLToPath(new URL("../../../corpus/structure/", import.meta.url))
const repository = fileURLToPath(new URL("../../../", import.meta.url))

const pandoc = (args: ReadonlyArray<string>, input: string): string =>
  execFileSync("pandoc", args, { input, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })

/**
 * The HTML as GFM without raw HTML: divs, spans and sections are unwrapped first (a section number's span
 * keeps its text), since pandoc's GFM writer keeps a div as HTML whatever the options.
 */
const groundTruth = (html: string): string =>
  pandoc(["-f", "html", "-t", "gfm-raw_html", "--wrap=none"], html.replace(/<\/?(div|span|section)\b[^>]*>/gi, ""))

const printToPdf = (html: string, pdf: string): void => {
  const dir = mkdtempSync(Path.join(Os.tmpdir(), "structure-"))
  try {
    const page = Path.join(dir, "page.html")
    writeFileSync(page, html)
    execFileSync("chromium", [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      `--user-data-dir=${Path.join(dir, "profile")}`,
      "--no-pdf-header-footer",
      `--print-to-pdf=${pdf}`,
      `file://${page}`
    ], { stdio: "ignore", timeout: 120_000 })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A document through LibreOffice Writer: `docx` exported as PDF to `pdf`. */
const officeToPdf = (docx: Uint8Array, pdf: string): void => {
  const dir = mkdtempSync(Path.join(Os.tmpdir(), "structure-office-"))
  try {
    writeFileSync(Path.join(dir, "document.docx"), docx)
    execFileSync("soffice", [
      `-env:UserInstallation=file://${Path.join(dir, "profile")}`,
      "--headless",
      "--convert-to",
      "pdf",
      "--outdir",
      dir,
      Path.join(dir, "document.docx")
    ], { stdio: "ignore", timeout: 300_000 })
    copyFileSync(Path.join(dir, "document.pdf"), pdf)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const only = process.argv.slice(2)
mkdirSync(Path.join(corpus, "src"), { recursive: true })
for (const doc of structureDocuments.filter((doc) => only.length === 0 || only.includes(doc.name))) {
  const pdf = Path.join(corpus, `${doc.name}.pdf`)
  let html: string
  if (doc.kind === "readme" || doc.kind === "office") {
    const source = Path.join(corpus, "src", `${doc.name}.md`)
    if (doc.from !== undefined) copyFileSync(Path.join(repository, doc.from), source)
    const markdown = readFileSync(source, "utf8")
    const args = ["-f", "gfm", "-t", "html5", "--standalone", "--metadata", `pagetitle=${doc.name}`]
    // Images dropped: nothing may be fetched, and the text is what is measured.
    html = pandoc(doc.numbered ? [...args, "--number-sections"] : args, markdown)
      .replace(/<img[^>]*>/g, "")
    if (doc.kind === "readme") printToPdf(html, pdf)
    else officeToPdf(execFileSync("pandoc", ["-f", "html", "-t", "docx", "-o", "-"], { input: html }), pdf)
  } else if (doc.kind === "manual" && doc.debian !== undefined) {
    const manual = doc.debian
    html = withPackage(manual, (root) => {
      writeFileSync(pdf, pdfOf(root, manual))
      return htmlOf(root, manual)
    })
  } else {
    copyFileSync(`/usr/share/R/doc/manual/${doc.name}.pdf`, pdf)
    html = cleanTexinfo(readFileSync(`/usr/share/R/doc/manual/${doc.name}.html`, "utf8"))
  }
  writeFileSync(Path.join(corpus, `${doc.name}.md`), groundTruth(html))
  console.log(`${doc.name}: ${pdf}`)
}
