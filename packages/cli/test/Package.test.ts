/**
 * The command's package.json: the converter is bundled into dist/, so what the converter loads at
 * run time and cannot be bundled (PDFium's WebAssembly, tesseract.js and its language models) is a
 * dependency of the command, at the converter's own versions: one source for each.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"

interface Manifest {
  readonly dependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
}

const manifest = (path: string): Manifest =>
  JSON.parse(Fs.readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8")) as Manifest

describe("the command's dependencies", () => {
  it("are the converter's run-time packages at the converter's versions", () => {
    const cli = manifest("../package.json").dependencies ?? {}
    const converter = manifest("../../converter/package.json").dependencies ?? {}
    const needed = Object.keys(converter)
    assert.isAbove(needed.length, 0)
    for (const name of needed) assert.strictEqual(cli[name], converter[name], name)
  })

  it("list nothing the bundle carries itself", () => {
    const cli = Object.keys(manifest("../package.json").dependencies ?? {})
    for (const bundled of ["@pdf-transform/converter", "@pdf-transform/server", "effect", "@effect/platform"]) {
      assert.notInclude(cli, bundled)
    }
  })
})
