// The API reference, the Effect monorepo's way: @effect/docgen in every package (every export needs
// `@since`; examples in doc comments are type-checked and run), then one check docgen does not make
// (every export has a `@category`: docgen files the others under "utils"), then the pages copied to
// docs/api/<package>/, where the package READMEs link to them.
//
//   node scripts/docs.mjs           # regenerate docs/api
//   node scripts/docs.mjs --check   # also fail when docs/api differs from what is committed
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const root = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")
const check = process.argv.includes("--check")
const docgen = Path.join(root, "node_modules", ".bin", "docgen")
const problems = []

for (const name of Fs.readdirSync(Path.join(root, "packages")).sort()) {
  const dir = Path.join(root, "packages", name)
  if (!Fs.existsSync(Path.join(dir, "docgen.json"))) continue
  const config = JSON.parse(Fs.readFileSync(Path.join(dir, "docgen.json"), "utf8"))
  const generated = Path.join(dir, config.outDir)
  const result = spawnSync(docgen, [], {
    cwd: dir,
    encoding: "utf8",
    env: {
      ...process.env,
      NO_COLOR: "1",
      PATH: `${Path.join(root, "node_modules", ".bin")}${Path.delimiter}${process.env.PATH}`
    }
  })
  if (result.status !== 0) {
    problems.push(`${name}: docgen failed\n${result.stdout}${result.stderr}`)
    continue
  }
  const modules = Path.join(generated, "modules")
  const pages = Fs.readdirSync(modules).filter((file) => file.endsWith(".md"))
  for (const page of pages) {
    const text = Fs.readFileSync(Path.join(modules, page), "utf8")
    const utils = text.split(/^# utils$/m)[1]
    if (utils === undefined) continue
    const names = [...utils.split(/^# /m)[0].matchAll(/^## (.+)$/gm)].map((match) => match[1])
    problems.push(`${name}/src/${page.replace(/\.md$/, "")}: no @category on ${names.join(", ")}`)
  }
  const target = Path.join(root, "docs", "api", name)
  Fs.rmSync(target, { recursive: true, force: true })
  Fs.mkdirSync(target, { recursive: true })
  for (const page of pages) Fs.copyFileSync(Path.join(modules, page), Path.join(target, page))
  Fs.rmSync(generated, { recursive: true, force: true })
  process.stderr.write(`docs: ${name}: ${pages.length} pages in docs/api/${name}\n`)
}

if (check && problems.length === 0) {
  const status = spawnSync("git", ["status", "--porcelain", "--", "docs/api"], { cwd: root, encoding: "utf8" })
  if (status.status !== 0) problems.push(`git status failed: ${status.stderr}`)
  else if (status.stdout.trim() !== "") {
    problems.push(`docs/api is not what the sources generate; run \`pnpm run docs\` and commit:\n${status.stdout}`)
  }
}

if (problems.length > 0) {
  process.stderr.write(`${problems.join("\n")}\n`)
  process.exit(1)
}
