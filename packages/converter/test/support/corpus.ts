/**
 * Where the corpus lives (`corpus/` at the repository root), and the external tools the corpus
 * tests compare against. The tools are installed by CI, so their absence is a failure.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/** `corpus/` at the repository root. */
export const corpusDir = fileURLToPath(new URL("../../../../corpus/", import.meta.url))

/** A corpus file's path, e.g. `corpusFile("text/tracemonkey.pdf")`. */
export const corpusFile = (name: string): string => `${corpusDir}${name}`

/** A corpus file's bytes. */
export const readCorpus = (name: string): Uint8Array => new Uint8Array(readFileSync(corpusFile(name)))

/** pdftotext's reading of a file (UTF-8); throws when poppler-utils is missing. */
export const pdftotext = (path: string): string =>
  execFileSync("pdftotext", ["-enc", "UTF-8", path, "-"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })

/** The epubcheck jar as Debian installs it. */
export const epubcheckJar = "/usr/share/java/epubcheck.jar"

/** tracemonkey has no outline: its section titles, as printed, are the reference. */
export const tracemonkeyTitles = [
  "Abstract",
  "1. Introduction",
  "2. Overview: Example Tracing Run",
  "3. Trace Trees",
  "4. Nested Trace Tree Formation",
  "5. Trace Tree Optimization",
  "6. Implementation",
  "7. Evaluation",
  "8. Related Work",
  "9. Conclusions",
  "10. Future Work",
  "References"
]
