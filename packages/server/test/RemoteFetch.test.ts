/**
 * The success path of remote fetching, which the address policy keeps away from every address a
 * test can reach: `fetchTarget` is given a checked target by hand, pinned to a 127.0.0.1 server,
 * under a host name that resolves nowhere. So the test also proves that the connection goes to the
 * checked address and never to a second DNS answer.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { fetchTarget } from "../src/internal/addresses.js"

const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(200_000, 0x20), Buffer.from("\n%%EOF\n")])

interface Seen {
  host?: string | undefined
  accept?: string | undefined
}

/** A loopback server for one test, closed with the test's scope. */
const origin = (handler: Http.RequestListener) =>
  Effect.acquireRelease(
    Effect.async<Http.Server>((resume) => {
      const server = Http.createServer(handler)
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map((server) => (server.address() as AddressInfo).port))

const target = (port: number, path = "/paper.pdf") => ({
  // `.invalid` never resolves (RFC 2606): only the pinned address can be reached.
  url: new URL(`http://pdfs.example.invalid:${port}${path}`),
  address: "127.0.0.1",
  family: 4 as const
})

describe("fetchTarget", () => {
  it.scoped("fetches from the pinned address, keeping the URL's host name", () =>
    Effect.gen(function*() {
      const seen: Seen = {}
      const port = yield* origin((req, res) => {
        seen.host = req.headers.host
        seen.accept = req.headers.accept
        res.writeHead(200, { "content-type": "application/pdf", "content-length": pdf.length })
        res.end(pdf)
      })
      const bytes = yield* fetchTarget(target(port), { maxBytes: 1_000_000, timeoutMs: 10_000 })
      assert.isTrue(Buffer.from(bytes).equals(pdf))
      assert.strictEqual(seen.host, `pdfs.example.invalid:${port}`)
      assert.strictEqual(seen.accept, "application/pdf")
    }))

  it.scoped("refuses a body announced larger than the limit", () =>
    Effect.gen(function*() {
      const port = yield* origin((_req, res) => {
        res.writeHead(200, { "content-length": pdf.length })
        res.end(pdf)
      })
      const result = yield* Effect.either(fetchTarget(target(port), { maxBytes: 1000, timeoutMs: 10_000 }))
      assert.isTrue(Either.isLeft(result) && result.left.reason.includes("larger than 1000 bytes"))
    }))

  it.scoped("stops reading a chunked body once it passes the limit", () =>
    Effect.gen(function*() {
      const port = yield* origin((_req, res) => {
        // No Content-Length: the limit can only be enforced while reading.
        res.writeHead(200, { "transfer-encoding": "chunked" })
        res.write(pdf.subarray(0, 100_000))
        res.end(pdf.subarray(100_000))
      })
      const result = yield* Effect.either(fetchTarget(target(port), { maxBytes: 50_000, timeoutMs: 10_000 }))
      assert.isTrue(Either.isLeft(result) && result.left.reason.includes("larger than 50000 bytes"))
    }))

  it.scoped("does not follow redirects (their target would escape the address check)", () =>
    Effect.gen(function*() {
      const port = yield* origin((_req, res) => {
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" })
        res.end()
      })
      const result = yield* Effect.either(fetchTarget(target(port), { maxBytes: 1_000_000, timeoutMs: 10_000 }))
      assert.isTrue(Either.isLeft(result) && result.left.reason.includes("HTTP 302"))
    }))

  it.scoped("a non-200 answer fails with its status", () =>
    Effect.gen(function*() {
      const port = yield* origin((_req, res) => {
        res.writeHead(404)
        res.end("gone")
      })
      const result = yield* Effect.either(fetchTarget(target(port), { maxBytes: 1_000_000, timeoutMs: 10_000 }))
      assert.isTrue(Either.isLeft(result) && result.left.reason.includes("HTTP 404"))
    }))
})
