/**
 * The command against a base URL where nothing listens: it gives up within seconds with a sentence
 * naming the URL and its own exit code, for URLs and local files alike.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Path from "node:path"
import { repository, run, stopAll, temporaryFolder } from "../support/process.js"

/** A port on 127.0.0.1 where nothing listens (taken from the system, then let go). */
const deadPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = Net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => typeof address === "object" && address !== null ? resolve(address.port) : reject())
    })
  })

describe("convert against a service that cannot be reached", () => {
  afterAll(stopAll)

  it("a dead --base-url: exit 5 within 10 s, one sentence naming the URL, nothing converted", async () => {
    const port = await deadPort()
    const baseUrl = `http://127.0.0.1:${port}/v1`
    const out = temporaryFolder("pdf-transform-cli-out-")
    const started = Date.now()
    const result = await run([
      "convert",
      "https://example.org/paper.pdf",
      Path.join(repository, "examples/pdfs/tracemonkey.pdf"),
      "--to",
      "markdown",
      "--out",
      out,
      "--base-url",
      baseUrl,
      "--api-key",
      "any-key"
    ])
    const elapsed = Date.now() - started
    assert.strictEqual(result.code, 5, result.stdout + result.stderr)
    assert.isBelow(elapsed, 10_000)
    const escaped = baseUrl.replace(/[./]/g, "\\$&")
    assert.match(result.stdout, new RegExp(`^stopped\\s+cannot reach the service at ${escaped}: .*ECONNREFUSED`, "m"))
    assert.match(result.stdout, /^unreachable\s+service unreachable \(.*ECONNREFUSED.*\), next try in \d+ s$/m)
    assert.notMatch(result.stdout + result.stderr, /\n\s+at \S/)
    assert.deepStrictEqual(Fs.readdirSync(out).filter((name) => name.endsWith(".md")), [])
  }, 30_000)
})
