/**
 * The root scripts call each other through pnpm, and pnpm takes some names for commands of its own
 * or npm's (`pnpm docs` opens the package's page in a browser): a script called that way never runs.
 * Each `pnpm <name>` in a root script is tried in an empty project whose scripts only print their
 * names, so a shadowed name shows as a script that did not run.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../", import.meta.url))
const scripts = (JSON.parse(Fs.readFileSync(Path.join(root, "package.json"), "utf8")) as {
  readonly scripts: Record<string, string>
}).scripts

const project = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-scripts-"))
afterAll(() => Fs.rmSync(project, { recursive: true, force: true }))
Fs.writeFileSync(
  Path.join(project, "package.json"),
  JSON.stringify({
    name: "script-names",
    private: true,
    scripts: Object.fromEntries(Object.keys(scripts).map((name) => [name, `node -e "console.log('ran ${name}')"`]))
  })
)

/** Whether `pnpm <words>` in the empty project runs the script `name`. */
const runsScript = (name: string, words: ReadonlyArray<string>): boolean => {
  const result = spawnSync("pnpm", [...words], {
    cwd: project,
    encoding: "utf8",
    timeout: 60_000,
    // A shadowed `docs` must not open a browser here.
    env: { ...process.env, BROWSER: "true", npm_config_browser: "false" }
  })
  return result.stdout.includes(`ran ${name}`)
}

/** Every `pnpm <word> ...` in the root scripts, as the words that follow `pnpm` up to the next `&&`, once each. */
const calls = [
  ...new Map(
    Object.entries(scripts).flatMap(([script, command]) =>
      command.split("&&").map((part) => part.trim().split(/\s+/)).filter((words) => words[0] === "pnpm").map((
        words
      ) => [words.join(" "), { script, words: words.slice(1) }] as const)
    )
  ).values()
]

describe("root scripts", () => {
  it("the check tells a shadowed name from a script: `pnpm docs` is npm's command, `pnpm run docs` the script", () => {
    assert.isFalse(runsScript("docs", ["docs", "--check"]))
    assert.isTrue(runsScript("docs", ["run", "docs", "--check"]))
  }, 60_000)

  it("every script another script calls through pnpm runs (none is taken for a pnpm or npm command)", () => {
    const scriptCalls = calls.filter(({ words }) => {
      const name = words[0] === "run" ? words[1] : words[0]
      return name !== undefined && name in scripts
    })
    assert.isAbove(scriptCalls.length, 3, "the root scripts call each other")
    for (const { script, words } of scriptCalls) {
      const name = words[0] === "run" ? words[1]! : words[0]!
      assert.isTrue(runsScript(name, words), `"${script}" runs \`pnpm ${words.join(" ")}\`, which is not the script`)
    }
    // One pnpm process per call: an upper bound for a loaded machine, not a guess.
  }, 120_000)
})
