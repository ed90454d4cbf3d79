/** What every command's output shares: paths as a person reads them, colours, the process's streams. */
import * as Path from "node:path"
import type { Display } from "./lines.js"
import type { Streams } from "./reporter.js"
import * as Style from "./view/style.js"

/** A path relative to the working folder when it is inside it; URLs as they are. */
export const relativePath = (cwd: string) => (path: string): string => {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return path
  const relative = Path.relative(cwd, Path.resolve(cwd, path))
  return relative === ""
    ? "."
    : relative.startsWith("..") || Path.isAbsolute(relative)
    ? Path.resolve(cwd, path)
    : relative
}

export const display = (service: string | undefined): Display => ({
  path: relativePath(process.cwd()),
  messages: { service }
})

export const streams: Streams = {
  stdout: {
    write: (text) => void process.stdout.write(text),
    columns: () => process.stdout.columns ?? 80,
    rows: () => process.stdout.rows ?? 24
  },
  stderr: (text) => void process.stderr.write(text)
}

export const stdoutStyle = (): Style.Style => Style.forStream(process.stdout.isTTY === true, process.env)
export const stderrStyle = (): Style.Style => Style.forStream(process.stderr.isTTY === true, process.env)

/** Prints an error the way every command does: `error: what. todo.` on stderr. */
export const printError = (sentence: string): void => {
  const style = stderrStyle()
  process.stderr.write(`${style.red("error:")} ${sentence}\n`)
}
