// A stranger's first hour, checked: clones the repository's committed state into an empty
// temporary folder with nothing beside it, runs the README's two commands there (the main job,
// then the tests), and checks that the main job wrote its outputs, that the tests passed with
// none skipped, and that no tracked file refers to the sibling folder beside the repository
// (`sibling` below). CI runs it (.ci/run).
//
//   node scripts/fresh-clone.mjs
import { execFileSync, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const repo = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")

/** What the README's first command must leave behind: one non-empty output per example PDF. */
const expectedOutputs = (clone) =>
  Fs.readdirSync(Path.join(clone, "examples", "pdfs"))
    .filter((name) => name.endsWith(".pdf"))
    .map((name) => Path.join(clone, "out", name.replace(/\.pdf$/, ".md")))

/** The commands of the README's first shell block under "## Commands", comments left out. */
const readmeCommands = (readme) => {
  const section = readme.slice(readme.indexOf("## Commands"))
  const block = section.match(/```sh\n([\s\S]*?)```/)
  if (block === null) throw new Error("README.md has no ```sh block under ## Commands")
  return block[1].split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"))
}

const fail = (message) => {
  console.error(`fresh clone: ${message}`)
  process.exit(1)
}

const parent = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-fresh-"))
const clone = Path.join(parent, "pdf-transform")
// Spelt in parts so that this file does not match its own search.
const sibling = ["..", "shared"].join("/")

try {
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", repo, clone], { stdio: "inherit" })
  const refs = spawnSync("git", [
    "grep",
    "-l",
    "-F",
    sibling,
    "--",
    ".",
    ":!pnpm-lock.yaml"
  ], {
    cwd: clone,
    encoding: "utf8"
  })
  if (refs.stdout.trim() !== "") fail(`tracked files refer to ${sibling}:\n${refs.stdout}`)

  const commands = readmeCommands(Fs.readFileSync(Path.join(clone, "README.md"), "utf8"))
  if (commands.length !== 2) {
    fail(`expected the README's two commands, found ${commands.length}: ${commands.join(" | ")}`)
  }
  for (const command of commands) {
    console.log(`fresh clone $ ${command}`)
    const run = spawnSync("bash", ["-c", command], {
      cwd: clone,
      stdio: "inherit",
      env: { ...process.env, CI: "true" }
    })
    if (run.status !== 0) fail(`\`${command}\` exited with ${run.status}`)
  }

  const missing = expectedOutputs(clone).filter((file) => !Fs.existsSync(file) || Fs.statSync(file).size === 0)
  if (missing.length > 0) fail(`the main job left no output at ${missing.join(", ")}`)
  const results = JSON.parse(Fs.readFileSync(Path.join(clone, ".vitest-results.json"), "utf8"))
  const skipped = results.numPendingTests + results.numTodoTests
  if (results.numFailedTests > 0 || skipped > 0 || results.numTotalTests === 0) {
    fail(`tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`)
  }
  console.log(
    `fresh clone: the main job wrote ${expectedOutputs(clone).length} outputs; ` +
      `${results.numPassedTests} tests passed, none failed or skipped; nothing refers to ${sibling}`
  )
} finally {
  Fs.rmSync(parent, { recursive: true, force: true })
}
