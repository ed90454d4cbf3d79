/**
 * Remakes the fidelity suite's documents that were made here rather than taken as published:
 * each from a real document shipped in a Debian package, fetched with `apt-get download` at the
 * pinned version. Not run by CI (it needs Debian's archive, `chromium`, `rst2pdf`, `groff`,
 * Ghostscript's `ps2pdf` and LibreOffice's Writer and Impress); the bench reads the committed files. A remade file differs from the committed one where its producer
 * stamps the time (a browser's print header, the PDF's dates).
 *
 * Packages are unpacked under a fixed folder, not a temporary one, because a browser prints the
 * page's URL in its footer and the assertions name that footer.
 *
 * Run: `pnpm --filter @pdf-transform/converter exec tsx bench/fidelityMake.ts [ids...]` (all
 * documents, or those named).
 */
import { execFileSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const fidelityDir = fileURLToPath(new URL("../../../corpus/fidelity/", import.meta.url))
const sources = "/tmp/fidelity-sources"

interface Made {
  readonly id: string
  readonly set: "dev" | "heldout"
  readonly package: string
  readonly version: string
  /** Makes the PDF at `pdf` from the package unpacked at `root`. */
  readonly make: (root: string, pdf: string) => void
}

/** `package=version` unpacked at `sources/package` (replacing an earlier copy); its root. */
const unpack = (name: string, version: string): string => {
  const root = Path.join(sources, name)
  rmSync(root, { recursive: true, force: true })
  mkdirSync(root, { recursive: true })
  const dir = mkdtempSync(Path.join(Os.tmpdir(), "fidelity-deb-"))
  try {
    execFileSync("apt-get", ["download", `${name}=${version}`], { cwd: dir, stdio: "ignore" })
    const deb = execFileSync("sh", ["-c", "ls *.deb"], { cwd: dir, encoding: "utf8" }).trim()
    execFileSync("dpkg-deb", ["-x", Path.join(dir, deb), root])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return root
}

/** Headless Chromium's print of `url`, with its own header and footer (date, title, URL, page count). */
const chromiumPrint = (url: string, pdf: string): void => {
  const profile = mkdtempSync(Path.join(Os.tmpdir(), "fidelity-chromium-"))
  try {
    execFileSync("chromium", [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      `--print-to-pdf=${pdf}`,
      url
    ], { stdio: "ignore", timeout: 120_000 })
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
}

/** LibreOffice's tagged PDF export of `source` (an office document), as its author could make it. */
const officeTaggedPdf = (source: string, filter: "writer_pdf_Export" | "impress_pdf_Export", pdf: string): void => {
  const dir = mkdtempSync(Path.join(Os.tmpdir(), "fidelity-office-"))
  try {
    const input = Path.join(dir, `document${Path.extname(source)}`)
    copyFileSync(source, input)
    execFileSync("soffice", [
      `-env:UserInstallation=file://${Path.join(dir, "profile")}`,
      "--headless",
      "--convert-to",
      `pdf:${filter}:{"UseTaggedPDF":{"type":"boolean","value":"true"}}`,
      "--outdir",
      dir,
      input
    ], { stdio: "ignore", timeout: 300_000 })
    copyFileSync(Path.join(dir, "document.pdf"), pdf)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** rst2pdf (ReportLab) of a gzipped reStructuredText file. */
const rst2pdfOfGzip = (source: string, pdf: string): void => {
  const dir = mkdtempSync(Path.join(Os.tmpdir(), "fidelity-rst-"))
  try {
    const rst = Path.join(dir, Path.basename(source, ".gz"))
    writeFileSync(rst, execFileSync("gzip", ["-dc", source]))
    execFileSync("rst2pdf", [rst, "-o", pdf], { cwd: dir, stdio: "inherit" })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** groff's own PDF output (gropdf) of a gzipped troff source, with the macro package it is written for. */
const groffPdfOfGzip = (source: string, macros: string, pdf: string): void => {
  const troff = execFileSync("gzip", ["-dc", source])
  writeFileSync(pdf, execFileSync("groff", [macros, "-Tpdf"], { input: troff, maxBuffer: 64 * 1024 * 1024 }))
}

/**
 * Ghostscript's `ps2pdf` of a gzipped PostScript file, as a reader without the typesetter would print it
 * to PDF: on US letter, which the troff output was set for (the machine's default paper would move it).
 */
const ps2pdfOfGzip = (source: string, pdf: string): void => {
  const dir = mkdtempSync(Path.join(Os.tmpdir(), "fidelity-ps-"))
  try {
    const ps = Path.join(dir, Path.basename(source, ".gz"))
    writeFileSync(ps, execFileSync("gzip", ["-dc", source], { maxBuffer: 64 * 1024 * 1024 }))
    execFileSync("ps2pdf", ["-sPAPERSIZE=letter", ps, pdf], { stdio: "inherit" })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export const madeDocuments: ReadonlyArray<Made> = [
  {
    id: "sqlite-datatypes-chromium",
    set: "heldout",
    package: "sqlite3-doc",
    version: "3.40.1-2+deb12u2",
    make: (root, pdf) => chromiumPrint(`file://${root}/usr/share/doc/sqlite3/datatype3.html`, pdf)
  },
  {
    id: "python-regex-howto-chromium",
    set: "heldout",
    package: "python3.11-doc",
    version: "3.11.2-6+deb12u9",
    make: (root, pdf) => chromiumPrint(`file://${root}/usr/share/doc/python3.11/html/howto/regex.html`, pdf)
  },
  {
    id: "docutils-primer-rst2pdf",
    set: "heldout",
    package: "docutils-doc",
    version: "0.19+dfsg-6",
    // Run beside the source, so its `.. include::` header and its image are found.
    make: (root, pdf) =>
      execFileSync("rst2pdf", ["quickstart.txt", "-o", pdf], {
        cwd: Path.join(root, "usr/share/doc/docutils-doc/docs/user/rst"),
        stdio: "inherit"
      })
  },
  {
    id: "git-tutorial-chromium",
    set: "dev",
    package: "git-doc",
    version: "1:2.39.5-0+deb12u3",
    make: (root, pdf) => chromiumPrint(`file://${root}/usr/share/doc/git-doc/gittutorial.html`, pdf)
  },
  {
    id: "postgres-numeric-chromium",
    set: "dev",
    package: "postgresql-doc-15",
    version: "15.20-0+deb12u1",
    make: (root, pdf) => chromiumPrint(`file://${root}/usr/share/doc/postgresql-doc-15/html/datatype-numeric.html`, pdf)
  },
  {
    id: "canzeley-quickguide-tagged",
    set: "dev",
    package: "libreoffice-canzeley-client",
    version: "0.5.1-5",
    make: (root, pdf) =>
      officeTaggedPdf(
        Path.join(root, "usr/share/doc/libreoffice-canzeley-client/Canzeley-Kurzanleitung-030.odt"),
        "writer_pdf_Export",
        pdf
      )
  },
  {
    id: "harmattan-features-tagged",
    set: "dev",
    package: "fonts-sil-harmattan",
    version: "2.000-1",
    make: (root, pdf) =>
      officeTaggedPdf(
        Path.join(root, "usr/share/doc/fonts-sil-harmattan/documentation/Harmattan-features.odt"),
        "writer_pdf_Export",
        pdf
      )
  },
  {
    id: "mapsforge-sotm-slides",
    set: "dev",
    package: "libmapsforge-java-doc",
    version: "0.17.0+dfsg.1-2",
    make: (root, pdf) =>
      officeTaggedPdf(
        Path.join(root, "usr/share/doc/libmapsforge-java/docs/presentations/State of the Map 2010.odp"),
        "impress_pdf_Export",
        pdf
      )
  },
  {
    id: "autopkgtest-spec-rst2pdf",
    set: "dev",
    package: "autopkgtest",
    version: "5.28",
    make: (root, pdf) => rst2pdfOfGzip(Path.join(root, "usr/share/doc/autopkgtest/README.package-tests.rst.gz"), pdf)
  },
  {
    id: "aria2-readme-rst2pdf",
    set: "dev",
    package: "aria2",
    version: "1.36.0-1",
    make: (root, pdf) => rst2pdfOfGzip(Path.join(root, "usr/share/doc/aria2/README.rst.gz"), pdf)
  },
  {
    id: "groff-me-intro",
    set: "dev",
    package: "groff",
    version: "1.22.4-10",
    make: (root, pdf) => groffPdfOfGzip(Path.join(root, "usr/share/doc/groff-base/meintro.me.gz"), "-me", pdf)
  },
  {
    id: "f2c-paper",
    set: "dev",
    package: "f2c",
    version: "20200916-1",
    make: (root, pdf) => ps2pdfOfGzip(Path.join(root, "usr/share/doc/f2c/f2c.ps.gz"), pdf)
  },
  {
    id: "sendmail-op",
    set: "dev",
    package: "sendmail-doc",
    version: "8.17.1.9-2+deb12u2",
    make: (root, pdf) => ps2pdfOfGzip(Path.join(root, "usr/share/doc/sendmail-doc/op/op.ps.gz"), pdf)
  }
]

const wanted = process.argv.slice(2)
for (const doc of madeDocuments) {
  if (wanted.length > 0 && !wanted.includes(doc.id)) continue
  const pdf = Path.join(fidelityDir, doc.set, `${doc.id}.pdf`)
  doc.make(unpack(doc.package, doc.version), pdf)
  if (!existsSync(pdf)) throw new Error(`${doc.id}: no PDF was made`)
  console.log(`${doc.id}: ${pdf}`)
}
