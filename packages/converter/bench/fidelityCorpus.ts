/**
 * The fidelity suite's documents as `corpus/fidelity/README.md` lists them (its table is the one
 * list of documents, sets and producers), and each document's checks.
 */
import type * as Either from "effect/Either"
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import type { Check, ChecksParseError } from "./fidelityChecks.js"
import { parseChecks } from "./fidelityChecks.js"

export const fidelityDir = fileURLToPath(new URL("../../../corpus/fidelity/", import.meta.url))

export type FidelitySet = "dev" | "heldout"

export interface FidelityDocument {
  readonly id: string
  readonly set: FidelitySet
  readonly pages: number
  /** The class of program that made it ("LaTeX two-column", "Microsoft Word", ...). */
  readonly producer: string
  readonly tagged: boolean
}

/**
 * The rows of the README's documents table: `| id | set | pages | producer class | Creator /
 * Producer | tagged | source | licence |`, recognised by an id and a set in their first cells.
 */
export const readIndex = (readme: string): Array<FidelityDocument> =>
  readme.split("\n").flatMap((line) => {
    const cells = line.split("|").map((cell) => cell.trim())
    if (cells.length < 9 || cells[0] !== "") return []
    const [, id, set, pages, producer, , tagged] = cells
    if (!/^[a-z0-9-]+$/.test(id!) || (set !== "dev" && set !== "heldout")) return []
    return [{ id: id!, set, pages: Number(pages), producer: producer!, tagged: tagged === "yes" }]
  })

export const documents = (): Array<FidelityDocument> =>
  readIndex(readFileSync(Path.join(fidelityDir, "README.md"), "utf8"))

export const pdfPath = (doc: FidelityDocument): string => Path.join(fidelityDir, doc.set, `${doc.id}.pdf`)

export const checksPath = (doc: FidelityDocument): string => Path.join(fidelityDir, doc.set, `${doc.id}.checks`)

/** The document's checks, or the parse error naming its file (relative to the repository) and line. */
export const loadChecks = (doc: FidelityDocument): Either.Either<Array<Check>, ChecksParseError> =>
  parseChecks(readFileSync(checksPath(doc), "utf8"), `corpus/fidelity/${doc.set}/${doc.id}.checks`)
