/**
 * Regenerates `corpus/structure/`: documents whose source we have, turned into PDF, with the
 * Markdown a reader should get back as their ground truth. Not run by CI (it needs Debian's
 * `pandoc` and `chromium`, and `r-doc-pdf` with `r-doc-html` for the R manuals); the benchmark
 * reads the committed files.
 *
 * - READMEs of permissively licensed packages (copied into `corpus/structure/src/`): GFM ->
 *   standalone HTML (pandoc, images dropped since nothing may be fetched, some with numbered
 *   sections) -> PDF (headless Chromium). The ground truth is that HTML turned back into GFM by
 *   pandoc, so it holds exactly what the page shows (section numbers included).
 * - R's manuals, which Debian ships as PDF and as HTML made from one Texinfo source: the PDF as
 *   it is, and the HTML (navigation bars and indices removed, as they are not the text) turned
 *   into GFM by pandoc.
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

const corpus = fileURLToPath(new URL("../../../corpus/structure/", import.meta.url))
const repository = fileURLToPath(new URL("../../../", import.meta.url))

const pandoc = (args: ReadonlyArray<string>, input: string): string =>
  execFileSync("pandoc", args, { input, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })

/**
 * The HTML as GFM without raw HTML: divs and spans are unwrapped first (a section number's span
 * keeps its text), since pandoc's GFM writer keeps a div as HTML whatever the options.
 */
const groundTruth = (html: string): string =>
  pandoc(["-f", "html", "-t", "gfm-raw_html", "--wrap=none"], html.replace(/<\/?(div|span)\b[^>]*>/g, ""))

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

/** `html` without the `<div>` that starts at `start`, up to its own closing tag (divs nest). */
const withoutDiv = (html: string, start: number): string => {
  const tag = /<(\/?)div\b[^>]*>/g
  tag.lastIndex = start
  let depth = 0
  for (let match = tag.exec(html); match !== null; match = tag.exec(html)) {
    depth += match[1] === "" ? 1 : -1
    if (depth === 0) return html.slice(0, start) + html.slice(tag.lastIndex)
  }
  return html.slice(0, start)
}

/**
 * Texinfo's navigation bars, its linked table of contents (and each chapter's list of its
 * sections), its indices with their "Jump to"
 * letter bars, and the "Footnotes" heading are not the manual's text (the PDF has its own contents
 * and index, set as lines with page numbers, and its footnotes at the page feet, numbered, not
 * headed): removed; a footnote's number is kept as text, not as the heading the HTML makes it.
 */
const cleanTexinfo = (source: string): string => {
  let html = source
  for (let at = html.indexOf("<div class=\"contents\">"); at >= 0; at = html.indexOf("<div class=\"contents\">")) {
    html = withoutDiv(html, at)
  }
  return html
    .replace(/<div class="(header|nav-panel)">[\s\S]*?<\/div>/g, "")
    .replace(/<ul class="section-toc">[\s\S]*?<\/ul>/g, "")
    .replace(/<table class="(index-[a-z]+|cp-entries-printindex|fn-entries-printindex)[^"]*"[\s\S]*?<\/table>/g, "")
    .replace(/<table class="[a-z-]*letters[a-z-]*"[\s\S]*?<\/table>/g, "")
    .replace(/<table summary=""><tr><th valign="top">Jump to:[\s\S]*?<\/table>/g, "")
    .replace(/<h4 class="footnotes-heading">[\s\S]*?<\/h4>/g, "")
    .replace(/<h5>(<a id="FOOT\d+"[^>]*>[^<]*<\/a>)<\/h5>/g, "<p>$1</p>")
}

const only = process.argv.slice(2)
mkdirSync(Path.join(corpus, "src"), { recursive: true })
for (const doc of structureDocuments.filter((doc) => only.length === 0 || only.includes(doc.name))) {
  const pdf = Path.join(corpus, `${doc.name}.pdf`)
  let html: string
  if (doc.kind === "readme") {
    const source = Path.join(corpus, "src", `${doc.name}.md`)
    if (doc.from !== undefined) copyFileSync(Path.join(repository, doc.from), source)
    const markdown = readFileSync(source, "utf8")
    const args = ["-f", "gfm", "-t", "html5", "--standalone", "--metadata", `pagetitle=${doc.name}`]
    html = pandoc(doc.numbered ? [...args, "--number-sections"] : args, markdown)
      .replace(/<img[^>]*>/g, "")
    printToPdf(html, pdf)
  } else {
    copyFileSync(`/usr/share/R/doc/manual/${doc.name}.pdf`, pdf)
    html = cleanTexinfo(readFileSync(`/usr/share/R/doc/manual/${doc.name}.html`, "utf8"))
  }
  writeFileSync(Path.join(corpus, `${doc.name}.md`), groundTruth(html))
  console.log(`${doc.name}: ${pdf}`)
}
