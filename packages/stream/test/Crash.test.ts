/**
 * Crash safety, for real: a batch of 200 PDFs in a child process against the reference server
 * (simulated conversions) on 127.0.0.1, killed with SIGKILL at 20 random moments and started
 * again each time until done. The server counts the tasks created per document.
 *
 * Every document must end completed once on disk or be reported ambiguous; a document not
 * reported ambiguous must have been submitted exactly once; a last run that resubmits the
 * ambiguous ones completes all 200; no output is ever partial.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Converter } from "@pdf-transform/converter/Converter"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import * as Server from "@pdf-transform/server/Server"
import * as SimulatedConverter from "@pdf-transform/server/SimulatedConverter"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { build } from "esbuild"
import { type ChildProcess, spawn } from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const documents = 200
const kills = 20
const seed = Number(process.env["CRASH_SEED"] ?? Date.now() % 100_000)

/** Tasks the server created, by the document's name (the submit's `filename`). */
const created = new Map<string, number>()

const counting = (inner: ConverterModule.Service): ConverterModule.Service => ({
  toMarkdown: (pdf, options) =>
    Effect.suspend(() => {
      const name = options?.filename ?? "?"
      created.set(name, (created.get(name) ?? 0) + 1)
      return inner.toMarkdown(pdf, options)
    }),
  toEpub: (pdf, options) => inner.toEpub(pdf, options)
})

/** A small PRNG (mulberry32): the kill moments are reproducible from the printed seed. */
const random = (() => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
})()

const work = Fs.mkdtempSync(Path.join(Os.tmpdir(), "crash-"))
const inDir = Path.join(work, "in")
const outDir = Path.join(work, "out")
const journal = Path.join(work, "state", "journal.jsonl")
const child = Path.join(work, "child.mjs")
const key = Crypto.randomBytes(16).toString("hex")
const running = new Set<ChildProcess>()

const runtime = ManagedRuntime.make(
  Server.layer({
    keys: [Redacted.make(key)],
    port: 0,
    host: "127.0.0.1",
    limits: { concurrency: 16, rate: false, quota: false },
    conversions: { maxConcurrent: 64 }
  }).pipe(
    Layer.provide(Layer.succeed(
      Converter,
      counting(SimulatedConverter.make({ duration: "400 millis", jitter: 0.5, progressSteps: 4 }))
    ))
  )
)

/** The final outputs must each be whole: the simulated converter's text, to its last line. */
const whole = /^# doc-\d{3}\n\nThis is a simulated conversion of a \d+-byte PDF\.\n\nIt took .+ in 4 steps\.\n$/

const outputsAreWhole = () => {
  for (const name of Fs.readdirSync(outDir)) {
    if (name.endsWith(".pdf-transform.part")) continue
    const text = Fs.readFileSync(Path.join(outDir, name), "utf8")
    assert.match(text, whole, `${name} is not a whole output`)
  }
}

interface Run {
  readonly code: number | null
  readonly killed: boolean
  readonly events: ReadonlyArray<{ readonly tag: string; readonly name?: string; readonly error?: string }>
}

/** Runs the child; with `killAfterMs`, kills it that long after its first event. */
const runChild = (baseUrl: string, options: { readonly killAfterMs?: number; readonly resubmit?: boolean }) =>
  new Promise<Run>((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [child, baseUrl, key, inDir, outDir, journal, ...(options.resubmit === true ? ["resubmit"] : [])],
      { stdio: ["ignore", "pipe", "pipe"] }
    )
    running.add(proc)
    let out = ""
    let err = ""
    let killed = false
    proc.stdout.on("data", (chunk: Buffer) => {
      if (out === "" && options.killAfterMs !== undefined) {
        setTimeout(() => {
          killed = proc.kill("SIGKILL")
        }, options.killAfterMs)
      }
      out += chunk.toString("utf8")
    })
    proc.stderr.on("data", (chunk: Buffer) => void (err += chunk.toString("utf8")))
    proc.on("error", reject)
    proc.on("close", (code) => {
      running.delete(proc)
      if (!killed && code !== 0) return reject(new Error(`child exited ${code}: ${err}`))
      const lines = out.split("\n").filter((l) => l.trim() !== "")
      // A killed child may leave a last line half-written.
      const events = lines.flatMap((l) => {
        try {
          return [JSON.parse(l) as Run["events"][number]]
        } catch {
          return []
        }
      })
      resolve({ code, killed, events })
    })
  })

beforeAll(async () => {
  Fs.mkdirSync(inDir, { recursive: true })
  for (let i = 0; i < documents; i++) {
    const name = `doc-${String(i).padStart(3, "0")}`
    Fs.writeFileSync(Path.join(inDir, `${name}.pdf`), `%PDF-1.4\n% ${name} ${"x".repeat(i)}\n%%EOF\n`)
  }
  await build({
    entryPoints: [fileURLToPath(new URL("./support/crashChild.ts", import.meta.url))],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: child,
    logLevel: "warning",
    // Bundled CommonJS dependencies call `require`; give the ESM bundle one.
    banner: {
      js:
        "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
    }
  })
}, 120_000)

afterAll(async () => {
  for (const proc of running) proc.kill("SIGKILL")
  await runtime.dispose()
  Fs.rmSync(work, { recursive: true, force: true })
})

/**
 * Jobs a kill left with `submitting` and no answer (ambiguous on the next run), by key with the
 * document's name, read from the journal as the killed process left it: the last state of each
 * key, half-written lines ignored.
 */
const unanswered = (): ReadonlyMap<string, string> => {
  const last = new Map<string, { readonly state: string; readonly name: string }>()
  const text = Fs.existsSync(journal) ? Fs.readFileSync(journal, "utf8") : ""
  for (const line of text.split("\n")) {
    try {
      const entry = JSON.parse(line) as { readonly key?: unknown; readonly state?: unknown; readonly name?: unknown }
      if (typeof entry.key !== "string" || typeof entry.state !== "string") continue
      const name = typeof entry.name === "string" ? Path.basename(entry.name, ".pdf") : last.get(entry.key)?.name
      last.set(entry.key, { state: entry.state, name: name ?? "?" })
    } catch {
      // A line cut short by the kill: the journal reports it and reads on; so does this count.
    }
  }
  return new Map([...last].filter(([, job]) => job.state === "submitting").map(([key, job]) => [key, job.name]))
}

const mean = (counts: ReadonlyArray<number>, runs: number) =>
  (counts.reduce((a, b) => a + b, 0) / Math.max(1, runs)).toFixed(2)

describe("crash safety", () => {
  it("200 documents, 20 SIGKILLs at random moments: each completed once on disk or reported ambiguous", async () => {
    const { baseUrl } = await runtime.runPromise(Server.Server)
    let killedRuns = 0
    // The documents each kill left ambiguous; whether their submit reached the server is known at the end.
    const perKill: Array<ReadonlyArray<string>> = []
    for (let k = 0; k < kills; k++) {
      const before = unanswered()
      const run = await runChild(baseUrl, { killAfterMs: Math.round(50 + random() * 700) })
      if (run.killed) killedRuns++
      perKill.push([...unanswered()].filter(([key]) => !before.has(key)).map(([, name]) => name))
      outputsAreWhole()
    }
    const final = await runChild(baseUrl, {})
    assert.strictEqual(final.code, 0)
    outputsAreWhole()
    const finals = final.events.filter((e) => ["Completed", "Skipped", "Ambiguous", "Failed"].includes(e.tag))
    assert.strictEqual(finals.length, documents)
    assert.deepStrictEqual(finals.filter((e) => e.tag === "Failed"), [])
    const ambiguous = new Set(finals.filter((e) => e.tag === "Ambiguous").map((e) => e.name!.replace(/\.pdf$/, "")))
    // Let tasks created by submits whose answers were lost start at the server before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    for (let i = 0; i < documents; i++) {
      const name = `doc-${String(i).padStart(3, "0")}`
      if (ambiguous.has(name)) {
        assert.isAtMost(created.get(name) ?? 0, 1, `${name} was submitted more than once`)
        continue
      }
      assert.strictEqual(created.get(name), 1, `${name} was submitted ${created.get(name) ?? 0} times`)
      assert.isTrue(Fs.existsSync(Path.join(outDir, `${name}.md`)), `${name}.md is missing`)
    }
    const reachedServer = [...ambiguous].filter((name) => (created.get(name) ?? 0) === 1).length
    const reachedPerKill = perKill.map((names) => names.filter((name) => (created.get(name) ?? 0) > 0).length)
    const neverPerKill = perKill.map((names, k) => names.length - reachedPerKill[k]!)

    const last = await runChild(baseUrl, { resubmit: true })
    assert.strictEqual(last.code, 0)
    await new Promise((resolve) => setTimeout(resolve, 500))
    outputsAreWhole()
    const outputs = Fs.readdirSync(outDir).filter((name) => name.endsWith(".md")).sort()
    assert.strictEqual(outputs.length, documents)
    assert.deepStrictEqual(outputs, Array.from({ length: documents }, (_, i) => `doc-${String(i).padStart(3, "0")}.md`))
    const total = [...created.values()].reduce((a, b) => a + b, 0)
    assert.strictEqual(total, documents + reachedServer)
    console.info(
      `crash test (seed ${seed}): ${killedRuns} of ${kills} runs killed mid-batch; ${ambiguous.size} document(s) ` +
        `ambiguous after the kills (${reachedServer} of them had reached the server); tasks created: ${total} ` +
        `for ${documents} documents; left ambiguous per kill, never reached the service: ${neverPerKill.join(" ")} ` +
        `(mean ${mean(neverPerKill, killedRuns)}); reached it: ${reachedPerKill.join(" ")} ` +
        `(mean ${mean(reachedPerKill, killedRuns)})`
    )
  }, 300_000)
})
