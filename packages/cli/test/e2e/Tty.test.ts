/**
 * The live view on a real terminal: the command runs in a tmux pane (a pseudo-terminal with a
 * screen of its own), and the screen is read mid-batch and at the end.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { bin, repository, serve, stopAll, temporaryFolder } from "../support/process.js"

const columns = 100
const rows = 30
const socket = `pdf-transform-test-${process.pid}`
const key = "tty-key"

const tmux = (...args: ReadonlyArray<string>): string =>
  execFileSync("tmux", ["-u", "-L", socket, ...args], { encoding: "utf8" })

const screen = (): string => tmux("capture-pane", "-p", "-t", "cli")

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`

/** Reads the screen until `done` accepts it, or fails after `timeoutMs` with the last screen. */
const waitForScreen = async (done: (text: string) => boolean, timeoutMs: number): Promise<string> => {
  const deadline = Date.now() + timeoutMs
  let last = ""
  while (Date.now() < deadline) {
    last = screen()
    if (done(last)) return last
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the screen never showed what was expected:\n${last}`)
}

const documentLine = /^ {2}\S doc-\d\.pdf +(?:submitted|converting|resumed) +\[[█░]+\] +(?:\d+%|--) +\d+:\d\d$/
const runningTotal = /^ {2}\d\/6 done · 0 failed · [12] running · \d queued(?: · .*)?$/

describe("the live view on a terminal", () => {
  let server: Awaited<ReturnType<typeof serve>>
  beforeAll(async () => {
    server = await serve(key, ["--simulate", "2s"])
  }, 60_000)
  afterAll(async () => {
    try {
      tmux("kill-server")
    } catch {
      // No tmux server left to stop: the pane's command ended and took it along.
    }
    await stopAll()
  })

  it("shows one line per running document and a total line, fitted to the width, then the summary", async () => {
    const folder = temporaryFolder("pdf-transform-tty-")
    const pdf = Fs.readFileSync(Path.join(repository, "examples/pdfs/tracemonkey.pdf"))
    for (let i = 1; i <= 6; i++) {
      Fs.writeFileSync(Path.join(folder, `doc-${i}.pdf`), Buffer.concat([pdf, Buffer.from(`\n% ${i}\n`)]))
    }
    const command = [
      process.execPath,
      bin,
      "convert",
      ".",
      "--to",
      "markdown",
      "--out",
      "out",
      "--concurrency",
      "2",
      "--poll-interval",
      "200ms",
      "--base-url",
      server.baseUrl,
      "--api-key",
      key
    ].map(quote).join(" ")
    const environment = `env -i HOME=${quote(Os.homedir())} PATH=${
      quote(process.env.PATH ?? "/usr/bin:/bin")
    } TERM=screen`
    tmux(
      "new-session",
      "-d",
      "-x",
      String(columns),
      "-y",
      String(rows),
      "-s",
      "cli",
      "-c",
      folder,
      `${environment} ${command}; echo "EXIT=$?"; sleep 120`
    )

    const middle = await waitForScreen((text) => {
      const lines = text.split("\n")
      return lines.some((line) => documentLine.test(line) && line.includes("converting")) &&
        lines.some((line) => runningTotal.test(line))
    }, 30_000)
    const middleLines = middle.split("\n")
    assert.match(middleLines[0]!, /^Backend: http:\/\/127\.0\.0\.1:\d+\/v1, API key from --api-key$/)
    const running = middleLines.filter((line) => documentLine.test(line))
    assert.isTrue(running.length >= 1 && running.length <= 2, middle)
    const filled = middleLines.filter((line) => line.trim() !== "")
    assert.match(filled[filled.length - 1]!, runningTotal, "the total line is last")
    for (const line of middleLines) assert.isTrue([...line].length < columns, `wider than the terminal: ${line}`)

    const end = await waitForScreen((text) => /^EXIT=\d+$/m.test(text), 60_000)
    assert.match(end, /^EXIT=0$/m)
    for (let i = 1; i <= 6; i++) {
      assert.match(end, new RegExp(`^✓ doc-${i}\\.pdf → out/doc-${i}\\.md \\(\\d+ B\\)$`, "m"))
    }
    assert.match(end, /^ {2}6\/6 done · 0 failed · 0 running · 0 queued · [\d.]+ docs\/s · \d+:\d\d$/m)
    assert.notMatch(end, documentLine)
    assert.match(end, /^file +result +output or reason$/m)
    assert.strictEqual(end.match(/^doc-\d\.pdf +converted +out\/doc-\d\.md$/gm)?.length, 6)
    assert.match(end, /^6 converted in .+\. Outputs in out\/$/m)
  }, 120_000)
})
