// The help of each command and `--version`, answered from dist/help.json without loading the
// bundle: build.mjs writes it by running the bundle, styled and plain, so the bytes are the same.
import * as Fs from "node:fs"

/** The command lines answered from the cache, each as its arguments. */
export const lines = [
  ["--help"],
  ["convert", "--help"],
  ["serve", "--help"],
  ["status", "--help"],
  ["download", "--help"],
  ["--version"]
]

export const cacheFile = new URL("../dist/help.json", import.meta.url)

/** Styled as the bundle's own rule says (`forStream` in src/internal/view/style.ts). */
const styled = (stream, env) => stream.isTTY === true && (env.NO_COLOR ?? "") === "" && env.TERM !== "dumb"

/** Prints the cached answer to `args` and answers true, or answers false when there is none. */
export const printCached = (args) => {
  const key = JSON.stringify(args)
  if (!lines.some((line) => JSON.stringify(line) === key) || !Fs.existsSync(cacheFile)) return false
  const answer = JSON.parse(Fs.readFileSync(cacheFile, "utf8"))[key]
  if (answer === undefined) return false
  process.stdout.write(styled(process.stdout, process.env) ? answer.styled : answer.plain)
  process.exitCode = answer.code
  return true
}
