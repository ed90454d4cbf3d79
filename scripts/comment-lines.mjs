// Comment lines (line comments and every line of a block or JSDoc comment) as a share of all
// lines of each package's src, as STYLE.md's goal counts them. `--files` lists the files above
// `--file-max` (percent), `--max` makes the exit code 1 when a package is above it.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"

const args = process.argv.slice(2)
const option = (name) => {
  const i = args.indexOf(name)
  return i === -1 ? undefined : Number(args[i + 1])
}
const max = option("--max")
const fileMax = option("--file-max") ?? 20
const listFiles = args.includes("--files")

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : name.endsWith(".ts") ? [path] : []
  })

const count = (text) => {
  const lines = text.split("\n")
  if (lines.at(-1) === "") lines.pop()
  let comments = 0
  let inBlock = false
  for (const raw of lines) {
    const line = raw.trim()
    if (inBlock) {
      comments++
      inBlock = !line.includes("*/")
    } else if (line.startsWith("//")) {
      comments++
    } else if (line.startsWith("/*")) {
      comments++
      inBlock = !line.includes("*/")
    }
  }
  return { comments, lines: lines.length }
}

const percent = (part, whole) => (whole === 0 ? 0 : (100 * part) / whole)
let allComments = 0
let allLines = 0
let over = false
for (const pkg of readdirSync("packages").sort()) {
  const src = join("packages", pkg, "src")
  if (!statSync(src, { throwIfNoEntry: false })?.isDirectory()) continue
  let comments = 0
  let lines = 0
  const heavy = []
  for (const file of walk(src)) {
    const c = count(readFileSync(file, "utf8"))
    comments += c.comments
    lines += c.lines
    if (percent(c.comments, c.lines) > fileMax) {
      heavy.push(`  ${file} ${percent(c.comments, c.lines).toFixed(1)}% of ${c.lines}`)
    }
  }
  allComments += comments
  allLines += lines
  const share = percent(comments, lines)
  if (max !== undefined && share > max) over = true
  console.log(`${pkg.padEnd(10)} ${share.toFixed(1).padStart(5)}%  ${comments} of ${lines} lines`)
  if (listFiles) { for (const line of heavy) console.log(line) }
}
console.log(
  `${"all".padEnd(10)} ${percent(allComments, allLines).toFixed(1).padStart(5)}%  ${allComments} of ${allLines} lines`
)
process.exitCode = over ? 1 : 0
