/**
 * Every TypeScript or JSON code block in a README is a real file under `examples/`, so `pnpm check`
 * type-checks it (a JSON file is checked by the test of what reads it) and it cannot rot: the block
 * must follow a `<!-- file: examples/... -->` line and be that file's text, whole.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../", import.meta.url))

const readmes = execFileSync("git", ["ls-files", "*README.md"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((path) => path !== "" && !path.startsWith("corpus/"))

interface Block {
  readonly readme: string
  readonly line: number
  readonly file: string | undefined
  readonly code: string
}

/** The ```ts / ```typescript / ```json blocks of a README, with the file each one says it is. */
const blocks = (readme: string): ReadonlyArray<Block> => {
  const lines = Fs.readFileSync(Path.join(root, readme), "utf8").split("\n")
  const found: Array<Block> = []
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```(ts|typescript|json)\s*$/.test(lines[i]!)) continue
    const indent = lines[i]!.match(/^\s*/)![0]
    const end = lines.findIndex((line, j) => j > i && line.trim() === "```")
    const marker = lines[i - 1]?.match(/<!-- file: (\S+) -->/)
    const code = lines.slice(i + 1, end).map((line) => line.slice(indent.length)).join("\n")
    found.push({ readme, line: i + 1, file: marker?.[1], code: `${code}\n` })
    i = end
  }
  return found
}

describe("README code blocks", () => {
  const all = readmes.flatMap(blocks)

  it("there are some (the check looks at something)", () => {
    expect(all.length).toBeGreaterThan(0)
  })

  it.each(all.map((block) => [`${block.readme}:${block.line}`, block] as const))(
    "%s is an examples/ file",
    (_, block) => {
      expect(block.file, "the block must follow a <!-- file: examples/... --> line").toBeDefined()
      expect(block.file!.startsWith("examples/")).toBe(true)
      const path = Path.join(root, block.file!)
      expect(Fs.existsSync(path), `${block.file} does not exist`).toBe(true)
      expect(block.code).toBe(Fs.readFileSync(path, "utf8"))
    }
  )
})
