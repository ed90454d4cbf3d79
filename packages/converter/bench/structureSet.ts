/**
 * The documents of the structure benchmark (`corpus/structure/`): which are tuned on ("dev") and
 * which were never looked at while the layout rules were written ("heldout"), and where each came
 * from. `structureCorpus.ts` regenerates the files from these entries.
 *
 * The split was made once, when the manuals came in (issue 28): each toolchain that has two
 * documents has one on each side, and the held-out side has the larger share of pages. Layout
 * rules are tuned on dev only; a change is kept when the held-out totals do not fall.
 */
import type { DebianManual } from "./structureSources.js"

export interface StructureDocument {
  readonly name: string
  readonly set: "dev" | "heldout"
  /**
   * `readme`: a package's README, GFM -> HTML (pandoc) -> PDF (Chromium); `office`: the same
   * Markdown -> DOCX (pandoc) -> PDF (LibreOffice Writer); `texinfo`: an R manual from Debian's
   * `r-doc-pdf` and `r-doc-html`; `manual`: a Debian package's manual, PDF and HTML.
   */
  readonly kind: "readme" | "office" | "texinfo" | "manual"
  /** The toolchain that made the PDF, as the benchmark prints it. */
  readonly producer: string
  /** The README's path in the repository's `node_modules` (pinned by the lockfile). */
  readonly from?: string
  /** Rendered with `pandoc --number-sections`, so headings carry visible numbers. */
  readonly numbered?: boolean
  readonly debian?: DebianManual
}

const readme = (pkg: string, version: string, set: StructureDocument["set"], numbered = false): StructureDocument => ({
  name: `${pkg}-readme`,
  set,
  kind: "readme",
  producer: "Chromium (pandoc HTML)",
  from: `node_modules/.pnpm/${pkg}@${version}/node_modules/${pkg}/README.md`,
  numbered
})

/** A README as a word processor prints it: pandoc's DOCX opened and exported by LibreOffice Writer. */
const office = (pkg: string, version: string, file: string, set: StructureDocument["set"]): StructureDocument => ({
  name: `${pkg}-docx`,
  set,
  kind: "office",
  producer: "LibreOffice Writer (DOCX)",
  from: `node_modules/.pnpm/${pkg}@${version}/node_modules/${pkg}/${file}`
})

const debian = (
  name: string,
  set: StructureDocument["set"],
  producer: string,
  manual: DebianManual
): StructureDocument => ({ name, set, kind: "manual", producer, debian: manual })

export const structureDocuments: ReadonlyArray<StructureDocument> = [
  readme("picomatch", "4.0.7", "dev", true),
  readme("acorn", "8.19.0", "dev"),
  readme("cac", "6.7.14", "dev"),
  readme("ignore", "5.3.2", "dev", true),
  readme("js-yaml", "4.3.2", "dev"),
  readme("node-addon-api", "7.1.1", "dev"),
  { name: "R-intro", set: "dev", kind: "texinfo", producer: "texinfo (pdfTeX)" },
  readme("semver", "7.8.6", "heldout", true),
  readme("pure-rand", "6.1.0", "heldout"),
  readme("toml", "4.3.0", "heldout"),
  readme("tesseract.js", "7.0.0", "heldout"),
  readme("magic-string", "0.30.21", "heldout", true),
  { name: "R-data", set: "heldout", kind: "texinfo", producer: "texinfo (pdfTeX)" },
  debian("liboctave", "dev", "texinfo (pdfTeX)", {
    package: "octave-doc",
    version: "7.3.0-2",
    pdf: "usr/share/doc/octave/liboctave.pdf",
    html: "usr/share/doc/octave/liboctave.html/index.html",
    style: "texinfo"
  }),
  debian("developers-reference", "dev", "Sphinx (LaTeX, pdfTeX)", {
    package: "developers-reference",
    version: "12.18",
    pdf: "usr/share/developers-reference/developers-reference.pdf",
    html: "usr/share/developers-reference/developers-reference.html",
    style: "sphinx"
  }),
  debian("debian-policy", "heldout", "Sphinx (LaTeX, XeTeX)", {
    package: "debian-policy",
    version: "4.6.2.0",
    pdf: "usr/share/doc/debian-policy/policy.pdf.gz",
    html: "usr/share/doc/debian-policy/policy.html/index.html",
    style: "sphinx"
  }),
  debian("maint-guide", "dev", "DocBook (DBLaTeX, XeTeX)", {
    package: "maint-guide",
    version: "1.2.53",
    pdf: "usr/share/doc/maint-guide/maint-guide.en.pdf",
    html: "usr/share/doc/maint-guide/html/index.en.html",
    style: "docbook"
  }),
  debian("debian-faq", "dev", "DocBook (DBLaTeX, XeTeX)", {
    package: "debian-faq",
    version: "11.1",
    pdf: "usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz",
    html: "usr/share/doc/debian/FAQ/index.en.html",
    style: "docbook"
  }),
  debian("debian-reference", "heldout", "DocBook (DBLaTeX, XeTeX)", {
    package: "debian-reference-en",
    version: "2.100",
    pdf: "usr/share/debian-reference/debian-reference.en.pdf",
    html: "usr/share/debian-reference/index.en.html",
    style: "docbook"
  }),
  debian("fhs", "heldout", "DocBook (Apache FOP)", {
    package: "debian-policy",
    version: "4.6.2.0",
    pdf: "usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz",
    html: "usr/share/doc/debian-policy/fhs/fhs-3.0.html",
    style: "docbook"
  }),
  debian("gnuplot", "heldout", "LaTeX (pdfTeX; HTML by latex2html)", {
    package: "gnuplot-doc",
    version: "5.4.4+dfsg1-2",
    pdf: "usr/share/doc/gnuplot/gnuplot.pdf",
    html: "usr/share/doc/gnuplot/htmldocs/index.html",
    style: "latex2html"
  }),
  office("commander", "10.0.1", "Readme.md", "dev"),
  office("ws", "8.23.0", "README.md", "heldout")
]
