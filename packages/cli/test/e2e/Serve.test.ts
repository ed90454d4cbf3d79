/**
 * `pdf-transform serve` as an operator configures it: a config file, variables and flags, in that
 * order of strength; a setting that cannot be used stops it before it starts, naming where it was
 * given; `--print-config` shows the settings without a secret; remote fetching of a pdfURL, off
 * by default, and on behind the address checks and an allow-list of hosts.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Http from "node:http"
import type * as Net from "node:net"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { run, serve, stopAll, temporaryFolder } from "../support/process.js"

afterAll(stopAll)

const key = "serve-test-key"
interface LogEntry {
  readonly message: unknown
  readonly annotations: Record<string, unknown>
}
/** Every line of `stdout` as the JSON logger writes it; a line that is not JSON fails the test. */
const logEntries = (stdout: string): Array<LogEntry> =>
  stdout.split("\n").filter((line) => line !== "").map((line) => {
    const entry = JSON.parse(line) as Partial<LogEntry>
    return { message: entry.message, annotations: entry.annotations ?? {} }
  })

const configFile = (settings: unknown): string => {
  const file = Path.join(temporaryFolder("pdf-transform-serve-config-"), "server.json")
  Fs.writeFileSync(file, JSON.stringify(settings))
  return file
}

describe("serve's settings", () => {
  it("a config file with a typo'd key or a negative limit stops serve at start, naming the path", async () => {
    const file = configFile({ limits: { concurency: 2, rate: { limit: -1, window: "1s" } } })
    const result = await run(["serve", "--config", file, "--port", "0", "--data-dir", ""])
    assert.strictEqual(result.code, 2, result.stderr)
    assert.include(result.stderr, `${file}: limits.concurency: is unexpected`)
    assert.include(result.stderr, `${file}: limits.rate: {"limit":-1,"window":"1s"} is not a limit`)
    assert.notInclude(result.stdout, "listening")
  })

  it("a flag beats a variable, which beats the file; --print-config shows the outcome and no secret", async () => {
    const secrets = ["file-key-secret-1", "file-key-secret-2", "file-signing-key-0123456789", "env-key-secret-3"]
    const file = configFile({
      port: 1001,
      host: "0.0.0.0",
      keys: [secrets[0], { key: secrets[1], name: "batch", limits: { concurrency: 32 } }],
      signingKey: secrets[2],
      limits: { quota: "5/1h", rate: "1/1s" }
    })
    const result = await run(["serve", "--config", file, "--port", "1003", "--print-config"], {
      env: {
        PDF_TRANSFORM_SERVER_PORT: "1002",
        PDF_TRANSFORM_SERVER_HOST: "10.1.2.3",
        PDF_TRANSFORM_SERVER_LIMITS_RATE: "3/1s",
        PDF_TRANSFORM_SERVER_DATABASE_URL: `postgres://u:${secrets[3]}@db/x`
      }
    })
    assert.strictEqual(result.code, 0, result.stderr)
    const shown = JSON.parse(result.stdout) as {
      port: number
      host: string
      limits: Record<string, unknown>
      keys: ReadonlyArray<unknown>
      conversions: Record<string, unknown>
    }
    assert.strictEqual(shown.port, 1003)
    assert.strictEqual(shown.host, "10.1.2.3")
    assert.deepStrictEqual(shown.limits["rate"], { limit: 3, window: "1s" })
    assert.deepStrictEqual(shown.limits["quota"], { limit: 5, window: "1h" })
    assert.strictEqual(shown.conversions["maxConcurrent"], 2)
    assert.deepStrictEqual(shown.keys, ["<redacted>", {
      key: "<redacted>",
      name: "batch",
      limits: { concurrency: 32 }
    }])
    for (const secret of secrets) assert.notInclude(result.stdout, secret)
  })
})

/** A file server on 127.0.0.1 that serves a PDF at /paper.pdf and records the Host of each request. */
const fileServer = async () => {
  const hosts: Array<string> = []
  const pdf = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n")
  const server = Http.createServer((request, response) => {
    hosts.push(request.headers.host ?? "")
    response.writeHead(200, { "content-type": "application/pdf", "content-length": pdf.length })
    response.end(pdf)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as Net.AddressInfo).port,
    hosts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const submit = async (baseUrl: string, pdfURL: string) => {
  const response = await fetch(`${baseUrl}/pdf-transform-markdown/submit`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ pdfURL, model: "gundam" })
  })
  return { status: response.status, body: await response.json() as Record<string, unknown> }
}

const routed = {
  NODE_OPTIONS: `--import=${fileURLToPath(new URL("../support/routedNetwork.mjs", import.meta.url))}`,
  ROUTED_HOST: "pdfs.example.com",
  // A public address (not in any range the server refuses); the preload routes it to 127.0.0.1.
  ROUTED_PUBLIC_ADDRESS: "93.184.216.34"
}

describe("serve's remote fetching", () => {
  it(
    "off by default: a public pdfURL is refused; on: fetched through the address checks and the allow-list",
    async () => {
      const files = await fileServer()
      try {
        const pdfURL = `http://pdfs.example.com:${files.port}/paper.pdf`
        const off = await serve(key, ["--simulate", "200ms"], { env: routed })
        const refused = await submit(off.baseUrl, pdfURL)
        assert.strictEqual(refused.status, 400)
        assert.include(String(refused.body["message"]), "remote fetching is disabled")

        const on = await serve(key, [
          "--simulate",
          "200ms",
          "--remote-fetch",
          "--remote-fetch-allow-hosts",
          "*.example.com"
        ], {
          env: routed
        })
        const accepted = await submit(on.baseUrl, pdfURL)
        assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
        const sessionID = String(accepted.body["sessionID"])
        let state = "processing"
        const deadline = Date.now() + 30_000
        while (state === "processing" && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          const polled = await fetch(`${on.baseUrl}/pdf-transform-markdown/result/${sessionID}`, {
            headers: { authorization: `Bearer ${key}` }
          })
          state = String((await polled.json() as Record<string, unknown>)["state"])
        }
        assert.strictEqual(state, "completed")
        assert.deepStrictEqual(files.hosts, [`pdfs.example.com:${files.port}`])
        // The address checks stay on: the file server's own address is refused, and so is a host off the list.
        const loopback = await submit(on.baseUrl, `http://127.0.0.1:${files.port}/paper.pdf`)
        assert.strictEqual(loopback.status, 400)
        assert.include(String(loopback.body["message"]), "is not one this server fetches from")
        const unlisted = await serve(key, ["--simulate", "200ms", "--remote-fetch"], { env: routed })
        const private_ = await submit(unlisted.baseUrl, `http://127.0.0.1:${files.port}/paper.pdf`)
        assert.strictEqual(private_.status, 400)
        assert.include(String(private_.body["message"]), "not a public address")
        const offList = await serve(key, [
          "--simulate",
          "200ms",
          "--remote-fetch",
          "--remote-fetch-allow-hosts",
          "arxiv.org"
        ], {
          env: routed
        })
        assert.strictEqual((await submit(offList.baseUrl, pdfURL)).status, 400)
        assert.deepStrictEqual(files.hosts.length, 1)
      } finally {
        await files.close()
      }
    },
    120_000
  )
})

describe("serve's stop", () => {
  const upload = async (baseUrl: string) => {
    const response = await fetch(`${baseUrl}/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/pdf" },
      body: `%PDF-1.4\n${"x".repeat(500)}\n%%EOF\n`
    })
    assert.strictEqual(response.status, 201)
    return String(((await response.json()) as Record<string, unknown>)["url"])
  }
  const origin = (baseUrl: string) => baseUrl.replace(/\/v1$/, "")

  it("SIGTERM: at once not ready and no submit (503, Retry-After), the running conversion ends, exit 0", async () => {
    const server = await serve(key, ["--simulate", "4s"])
    const pdfURL = await upload(server.baseUrl)
    const accepted = await submit(server.baseUrl, pdfURL)
    assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
    server.child.kill("SIGTERM")
    await server.waitFor(/Stopping/, 10_000)
    assert.strictEqual((await fetch(`${origin(server.baseUrl)}/readyz`)).status, 503)
    assert.strictEqual((await fetch(`${origin(server.baseUrl)}/healthz`)).status, 200)
    const refused = await fetch(`${server.baseUrl}/pdf-transform-markdown/submit`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ pdfURL, model: "gundam" })
    })
    assert.strictEqual(refused.status, 503)
    assert.isNotNull(refused.headers.get("retry-after"))
    assert.strictEqual(await server.exited, 0)
    // The conversion ended here before the process did (its log line).
    const ended = logEntries(server.stdout()).filter(({ message }) => message === "task completed")
    assert.deepStrictEqual(ended.map(({ annotations }) => annotations["taskId"]), [accepted.body["sessionID"]])
  }, 60_000)

  it(
    "logs: JSON when stdout is not a terminal, a line per request with its route and key id, never the key",
    async () => {
      const server = await serve(key, ["--simulate", "1s"])
      const accepted = await submit(server.baseUrl, await upload(server.baseUrl))
      assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
      const refused = await fetch(`${server.baseUrl}/pdf-transform-markdown/result/nope`, {
        headers: { authorization: "Bearer wrong-key" }
      })
      assert.strictEqual(refused.status, 401)
      server.child.kill("SIGTERM")
      assert.strictEqual(await server.exited, 0)
      const output = server.stdout()
      assert.notInclude(output, key)
      // Every line is a JSON object (logEntries fails on one that is not).
      const requests = logEntries(output).filter(({ message }) => message === "request")
      const submitted = requests.find(({ annotations }) => annotations["route"] === "/v1/pdf-transform-markdown/submit")
      assert.deepInclude(submitted?.annotations, {
        method: "POST",
        status: 200,
        key: "key#1",
        taskId: accepted.body["sessionID"]
      })
      assert.isAtLeast(Number(submitted?.annotations["durationMs"]), 0)
      const denied = requests.find(({ annotations }) => annotations["status"] === 401)
      assert.strictEqual(denied?.annotations["route"], "/v1/pdf-transform-markdown/result/:taskId")
      assert.isUndefined(denied?.annotations["key"])
      assert.isTrue(logEntries(output).some(({ message }) => String(message).includes("listening on")))
    },
    60_000
  )

  it("logs: --log-format text writes the command's lines as text and requests as logfmt", async () => {
    const server = await serve(key, ["--simulate", "1s", "--log-format", "text"])
    await upload(server.baseUrl)
    server.child.kill("SIGTERM")
    assert.strictEqual(await server.exited, 0)
    assert.match(server.stdout(), /^pdf-transform server listening on /m)
    const line = server.stdout().split("\n").find((line) => line.includes("message=request")) ?? ""
    for (const field of ["route=/v1/files", "status=201", "key=key#1", "method=POST"]) assert.include(line, field)
  }, 60_000)

  it("a second signal stops at once, with 130, without waiting for the conversion", async () => {
    const server = await serve(key, ["--simulate", "60s"])
    const accepted = await submit(server.baseUrl, await upload(server.baseUrl))
    assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
    server.child.kill("SIGTERM")
    await server.waitFor(/Stopping/, 10_000)
    const stopped = Date.now()
    server.child.kill("SIGTERM")
    assert.strictEqual(await server.exited, 130)
    // Far below the conversion's minute: it was not waited for.
    assert.isBelow(Date.now() - stopped, 20_000)
  }, 60_000)
})
