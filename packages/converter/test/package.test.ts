/**
 * The package's manifest against its source: a user installs `dependencies`, so each is one the
 * source loads, and the source loads nothing that is neither a dependency, a peer nor Node's own.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

interface Manifest {
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
}

const root = fileURLToPath(new URL("..", import.meta.url))
const manifest = JSON.parse(Fs.readFileSync(Path.join(root, "package.json"), "utf8")) as Manifest

const sources = (directory: string): Array<string> =>
  Fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = Path.join(directory, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.(ts|cjs)$/.test(entry.name) ? [Fs.readFileSync(path, "utf8")] : []
  })

const source = sources(Path.join(root, "src")).join("\n")

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")

const imported = new Set(
  [...source.matchAll(/(?:from |import\(|require\()"([^".][^"]*)"/g)]
    .map((match) => packageOf(match[1]!))
    .filter((name) => !name.startsWith("node:"))
)

describe("the converter's package.json", () => {
  it("lists as a dependency only what the source loads at run time", () => {
    const dependencies = Object.keys(manifest.dependencies ?? {})
    assert.isAbove(dependencies.length, 0)
    for (const name of dependencies) {
      // The language models are loaded by a name built from the language (`@tesseract.js-data/${language}`).
      const scope = name.startsWith("@") ? `${name.split("/")[0]}/` : undefined
      const loaded = imported.has(name) || (scope !== undefined && source.includes(`\`${scope}\${`))
      assert.isTrue(loaded, `${name} is a dependency the source never loads (a devDependency?)`)
    }
  })

  it("lists everything the source imports", () => {
    const listed = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {})
    ])
    assert.isAbove(imported.size, 0)
    for (const name of imported) assert.isTrue(listed.has(name), `${name} is imported but not listed`)
  })
})
