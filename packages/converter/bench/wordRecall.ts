/**
 * Words on any PDFs, ours against `pdftotext`'s: a quick look at documents nobody wrote assertions
 * for. For each file it prints the share of pdftotext's words (two or more letters or digits, each
 * counted as often as it occurs) that our Markdown also has, then the words most missing from ours
 * and the words ours has more of. Furniture we drop (running heads, folios) shows as missing, words
 * we rejoin at a line-end hyphen as extra; a ligature lost ("rst" for "first"), a word cut in two
 * ("docu ment") or a watermark read as text stand out in the lists.
 *
 * `tsx bench/wordRecall.ts file.pdf...` — never on held-out fidelity documents (it refuses them):
 * their words would show what to tune on.
 */
import * as Effect from "effect/Effect"
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import * as Engine from "../src/internal/engine.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "../test/support/engineOptions.js"
import { normalize, readMarkdown } from "./fidelityText.js"

const options = engineOptions({ readStructure: true })
/** How many of the most missing and most extra words are listed. */
const listed = 25

type Counts = Map<string, number>

const wordsOf = (text: string): Counts => {
  const counts: Counts = new Map()
  for (const token of text.split(" ")) {
    const word = token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")
    if (word.length >= 2) counts.set(word, (counts.get(word) ?? 0) + 1)
  }
  return counts
}

/** The words `a` has more of than `b`, most first. */
const excess = (a: Counts, b: Counts): Array<readonly [string, number]> =>
  [...a].map(([word, n]) => [word, n - (b.get(word) ?? 0)] as const).filter(([, n]) => n > 0).sort((x, y) =>
    y[1] - x[1]
  )

const total = (pairs: Iterable<readonly [string, number]>): number => [...pairs].reduce((sum, [, n]) => sum + n, 0)

const show = (pairs: ReadonlyArray<readonly [string, number]>): string =>
  pairs.slice(0, listed).map(([word, n]) => n > 1 ? `${word}×${n}` : word).join(" ")

const heldOut = (file: string): boolean => Path.resolve(file).split(Path.sep).join("/").includes("/fidelity/heldout/")

const files = process.argv.slice(2)
if (files.length === 0) throw new Error("usage: tsx bench/wordRecall.ts file.pdf...")
for (const file of files) {
  if (heldOut(file)) {
    console.log(`${file}: held-out, not read`)
    continue
  }
  const pdf = readFileSync(file)
  const read = await Effect.runPromise(Engine.readDocument(pdf, options, "markdown"))
  const ours = wordsOf(readMarkdown(Markdown.render(read.document)).text)
  const plain = execFileSync("pdftotext", ["-enc", "UTF-8", "-q", file, "-"], { encoding: "utf8", maxBuffer: 1 << 28 })
  const reference = wordsOf(normalize(plain))
  const missing = excess(reference, ours)
  const words = total(reference)
  const share = words === 0 ? "-" : `${(100 * (1 - total(missing) / words)).toFixed(1)}%`
  console.log(`${file}: ${share} of pdftotext's ${words} words`)
  console.log(`  missing: ${show(missing)}`)
  console.log(`  extra:   ${show(excess(ours, reference))}`)
}
