/**
 * `Epub.build` alone on one fidelity document's reading, this checkout against another's build
 * on the same document (read once by this checkout): CPU milliseconds a build, medians.
 *
 * `node --import tsx bench/epubBuild.ts [--before <checkout>] [--repeats N] ID`
 */
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { documents, pdfPath } from "./fidelityCorpus.js"
import { median } from "./fidelityReport.js"
import { importCheckout, takeFlag } from "./support.js"

const args = process.argv.slice(2)
const before = takeFlag(args, "--before")
const repeats = Number(takeFlag(args, "--repeats") ?? 20)
const doc = documents().find((d) => d.id === args[0])
if (doc === undefined) throw new Error(`no fidelity document ${args[0]}`)

const main = async () => {
  const here = await importCheckout(fileURLToPath(new URL("../../../", import.meta.url)))
  const engine = await here.source("internal/engine.ts")
  const pdf = new Uint8Array(readFileSync(pdfPath(doc)))
  const read = await here.Effect.runPromise(engine.readDocument(pdf, here.options, "epub"))
  const builds = [{ name: "after", build: (await here.source("Epub.ts")).build }]
  if (before !== undefined) {
    builds.unshift({
      name: "before",
      build: (await (await importCheckout(Path.resolve(before))).source("Epub.ts")).build
    })
  }
  const modified = new Date("2026-01-01T00:00:00Z")
  const times = builds.map(() => [] as Array<number>)
  const sizes = builds.map((b) => b.build(read.document, { modified }).length)
  for (let i = 0; i < repeats; i++) {
    builds.forEach((b, k) => {
      const cpu = process.cpuUsage()
      b.build(read.document, { modified })
      const used = process.cpuUsage(cpu)
      times[k]!.push((used.user + used.system) / 1000)
    })
  }
  builds.forEach((b, k) =>
    console.log(`${doc.id} ${b.name}: build ${median(times[k]!).toFixed(2)} ms CPU, ${sizes[k]} bytes`)
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
