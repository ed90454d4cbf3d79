/**
 * Where `structureCorpus.ts` takes the manuals of the structure benchmark from: Debian packages
 * that ship one manual as PDF and as HTML, made from one source by one toolchain (texinfo,
 * LaTeX, Sphinx, DocBook with DBLaTeX or Apache FOP). A package is fetched with `apt-get
 * download` at the version pinned in `structureSet.ts` and unpacked in a temporary folder; its
 * HTML pages are read in the manual's own order (each page's `rel="next"` link, from the first),
 * and what is not the manual's text (navigation bars, linked tables of contents, indices, the
 * pilcrows of Sphinx's heading links) is removed before pandoc turns them into the ground truth.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { gunzipSync } from "node:zlib"

/** How the HTML edition was made, which says what to remove from it. */
export type HtmlStyle = "texinfo" | "docbook" | "sphinx" | "latex2html"

export interface DebianManual {
  readonly package: string
  readonly version: string
  /** The PDF in the package (a `.gz` is unpacked). */
  readonly pdf: string
  /** The HTML page the manual starts at. */
  readonly html: string
  readonly style: HtmlStyle
}

/** Unpacks `package=version` in a temporary folder; `use` gets that folder, which goes afterwards. */
export const withPackage = <A>(manual: DebianManual, use: (root: string) => A): A => {
  const dir = mkdtempSync(Path.join(Os.tmpdir(), "structure-deb-"))
  try {
    execFileSync("apt-get", ["download", `${manual.package}=${manual.version}`], { cwd: dir, stdio: "ignore" })
    const deb = execFileSync("sh", ["-c", "ls *.deb"], { cwd: dir, encoding: "utf8" }).trim()
    execFileSync("dpkg-deb", ["-x", deb, "root"], { cwd: dir })
    return use(Path.join(dir, "root"))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The PDF's bytes, unpacked if the package ships it gzipped. */
export const pdfOf = (root: string, manual: DebianManual): Buffer => {
  const bytes = readFileSync(Path.join(root, manual.pdf))
  return manual.pdf.endsWith(".gz") ? gunzipSync(bytes) : bytes
}

/** `html` without the element `tag` that opens at `start`, up to its own closing tag (they nest). */
const withoutElement = (html: string, start: number, tag = "div"): string => {
  const pattern = new RegExp(`<(/?)${tag}\\b[^>]*>`, "gi")
  pattern.lastIndex = start
  let depth = 0
  for (let match = pattern.exec(html); match !== null; match = pattern.exec(html)) {
    depth += match[1] === "" ? 1 : -1
    if (depth === 0) return html.slice(0, start) + html.slice(pattern.lastIndex)
  }
  return html.slice(0, start)
}

/** The inside of the element `tag` that opens at `start`. */
const insideElement = (html: string, start: number, tag = "div"): string => {
  const pattern = new RegExp(`<(/?)${tag}\\b[^>]*>`, "gi")
  pattern.lastIndex = start
  let depth = 0
  let from = -1
  for (let match = pattern.exec(html); match !== null; match = pattern.exec(html)) {
    if (from < 0) from = pattern.lastIndex
    depth += match[1] === "" ? 1 : -1
    if (depth === 0) return html.slice(from, match.index)
  }
  return html.slice(from)
}

/**
 * Removes every element whose opening tag matches `opening` (a regular expression source), or
 * only those whose inside `when` accepts.
 */
const removeAll = (
  html: string,
  opening: string,
  tag = "div",
  when: (inside: string) => boolean = () => true
): string => {
  let out = html
  const pattern = new RegExp(opening, "gi")
  for (let match = pattern.exec(out); match !== null; match = pattern.exec(out)) {
    if (when(insideElement(out, match.index, tag))) {
      out = withoutElement(out, match.index, tag)
      pattern.lastIndex = match.index
    }
  }
  return out
}

const body = (html: string): string => {
  const start = /<body\b[^>]*>/i.exec(html)
  const end = html.search(/<\/body>/i)
  return start === null ? html : html.slice(start.index + start[0].length, end < 0 ? undefined : end)
}

/**
 * Texinfo's navigation bars, its linked table of contents (and each chapter's list of its
 * sections), its indices with their "Jump to" letter bars, and the "Footnotes" heading are not the
 * manual's text (the PDF has its own contents and index, set as lines with page numbers, and its
 * footnotes at the page feet, numbered, not headed); a footnote's number is kept as text.
 */
export const cleanTexinfo = (source: string): string =>
  removeAll(source, "<div class=\"contents\">")
    .replace(/<div class="(header|nav-panel)">[\s\S]*?<\/div>/g, "")
    .replace(/<ul class="(section-toc|mini-toc)">[\s\S]*?<\/ul>/g, "")
    .replace(/<table class="(index-[a-z]+|cp-entries-printindex|fn-entries-printindex)[^"]*"[\s\S]*?<\/table>/g, "")
    .replace(/<table class="[a-z-]*letters[a-z-]*"[\s\S]*?<\/table>/g, "")
    .replace(/<table summary=""><tr><th valign="top">Jump to:[\s\S]*?<\/table>/g, "")
    .replace(/<h4 class="footnotes-heading">[\s\S]*?<\/h4>/g, "")
    .replace(/<h5>(<a id="FOOT\d+"[^>]*>[^<]*<\/a>)<\/h5>/g, "<p>$1</p>")

/** DocBook's navigation bars and its lists of contents, tables, figures and examples. */
const cleanDocbook = (html: string): string =>
  removeAll(html, "<div class=\"(navheader|navfooter|toc|list-of-[a-z]+)\"")

/** Sphinx: the page's main text only, without the pilcrow links of its headings and its contents trees. */
const cleanSphinx = (html: string): string => {
  const main = /<div[^>]*role="main"[^>]*>/i.exec(html) ?? /<div class="body"[^>]*>/i.exec(html)
  const text = main === null ? html : insideElement(html, main.index)
  // A contents tree is a list of links on a chunked page; on a single page it holds the chapters.
  return removeAll(text, "<div class=\"toctree-wrapper", "div", (inside) => !/<h[1-6]\b/i.test(inside))
    .replace(/<a class="headerlink"[^>]*>[\s\S]*?<\/a>/g, "")
}

/** latex2html: its navigation panels, the child-link lists of each node and the page's address. */
const cleanLatex2html = (html: string): string =>
  removeAll(html, "<div class=\"(navigation|childlinks)\"")
    .replace(/<!--Navigation Panel-->[\s\S]*?<!--End of Navigation Panel-->/gi, "")
    .replace(/<!--Table of Child-Links-->[\s\S]*?<!--End of Table of Child-Links-->/gi, "")
    .replace(/<ADDRESS>[\s\S]*?<\/ADDRESS>/gi, "")

const cleaners: Record<HtmlStyle, (html: string) => string> = {
  texinfo: cleanTexinfo,
  docbook: cleanDocbook,
  sphinx: cleanSphinx,
  latex2html: cleanLatex2html
}

/** Pages that list or search the manual, never its text. */
const notText = /(^|\/)(genindex|search|py-modindex)\.html$/

/**
 * The `rel="next"` page of `html`, whatever the order of the link's attributes; the last of them
 * (latex2html gives two: the next section at the same level, then the next page to read).
 */
const nextOf = (html: string): string | undefined => {
  let next: string | undefined
  for (const link of html.match(/<link\b[^>]*>/gi) ?? []) {
    if (!/\brel="next"/i.test(link)) continue
    const href = /\bhref="([^"#]+)/i.exec(link)
    if (href !== null) next = href[1]
  }
  return next
}

/** The manual's HTML pages from the first, in reading order, each cleaned, as one document. */
export const htmlOf = (root: string, manual: DebianManual): string => {
  const pages: Array<string> = []
  const seen = new Set<string>()
  for (
    let page: string | undefined = Path.join(root, manual.html);
    page !== undefined && !seen.has(page) && existsSync(page) && !notText.test(page);
  ) {
    seen.add(page)
    const html = readFileSync(page, "utf8")
    pages.push(cleaners[manual.style](body(html)))
    const next = nextOf(html)
    page = next === undefined ? undefined : Path.join(Path.dirname(page), next)
  }
  return `<html><body>\n${pages.join("\n")}\n</body></html>`
}
