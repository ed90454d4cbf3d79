/**
 * Remakes the fidelity suite's documents that were made here rather than taken as published:
 * each from a real document shipped in a Debian package, fetched with `apt-get download` at the
 * pinned version. Not run by CI (it needs Debian's archive, `chromium` and `rst2pdf`); the bench
 * reads the committed files. A remade file differs from the committed one where its producer
 * stamps the time (a browser's print header, the PDF's dates).
 *
 * Packages are unpacked under a fixed folder, not a temporary one, because a browser prints the
 * page's URL in its footer and the assertions name that footer.
 *
 * Run: `pnpm --filter @pdf-transform/converter exec tsx bench/fidelityMake.ts [ids...]` (all
 * documents, or those named).
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
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

export const madeDocuments: ReadonlyArray<Made> = [
  {
    id: "sqlite-datatypes-chromium",
    set: "heldout",
    package: "sqlite3-doc",
    version: "3.40.1-2+deb12u2",
    make: (root, pdf) => chromiumPrint(`file://${root}/usr/share/doc/sqlite3/datatype3.html`, pdf)
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
