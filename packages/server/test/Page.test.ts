/**
 * The web page in a real browser (Debian's chromium through playwright-core, see
 * `browser/chromium.ts`), against servers on 127.0.0.1: signing in, dropping corpus PDFs and
 * reading and downloading what they became, a failure's reason, 429s ridden out, a reload in the
 * middle, hostile documents, the operator view of two nodes sharing PostgreSQL, axe-core, the
 * keyboard and a phone's screen. Screenshots of the main states go to `browser/screenshots/`.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as ConverterLive from "@pdf-transform/converter/ConverterLive"
import { Layer } from "effect"
import * as Fs from "node:fs"
import type { Page } from "playwright-core"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import type { Chromium } from "./browser/chromium.js"
import { launch } from "./browser/chromium.js"
import { hostileLines, hostilePdf } from "./browser/hostilePdf.js"
import {
  assertAccessible,
  drop,
  fitsWidth,
  phaseOf,
  screenshot,
  sessionIds,
  signIn,
  taskRow,
  watch
} from "./browser/pages.js"
import type { Running } from "./browser/servers.js"
import { fixedMarkdown, key, outputOf, start, submitDirectly, uploadDirectly } from "./browser/servers.js"
import type { Postgres } from "./fixtures/postgres.js"
import { startPostgres } from "./fixtures/postgres.js"
import * as Processes from "./processes.js"
import { corpusUrl } from "./utils.js"

const corpus = (path: string) => ({
  name: path.split("/").pop()!,
  bytes: new Uint8Array(Fs.readFileSync(new URL(path, corpusUrl)))
})
const documents = ["structure/toml-readme.pdf", "structure/js-yaml-readme.pdf", "structure/acorn-readme.pdf"].map(
  corpus
)

let chromium: Chromium
beforeAll(async () => {
  chromium = await launch()
}, 60_000)
afterAll(async () => {
  await chromium?.close()
})

/** The first heading line of a Markdown text, as its words. */
const firstHeading = (markdown: string): string => {
  const line = markdown.split("\n").find((line) => /^#{1,6} /.test(line))
  assert.isDefined(line, "the converter's Markdown has a heading")
  return line!.replace(/^#+ /, "").replace(/\\(.)/g, "$1").trim()
}

describe("the page, with the local converter", () => {
  let server: Running
  beforeAll(async () => {
    server = await start(ConverterLive.layer({ size: 2 }).pipe(Layer.orDie))
  }, 60_000)
  afterAll(() => server?.dispose())

  it(
    "loads without a key, with its security headers; a wrong key gets a clear message, the right one signs in",
    async () => {
      const answer = await fetch(`${server.origin}/`)
      assert.strictEqual(answer.status, 200)
      const csp = answer.headers.get("content-security-policy") ?? ""
      for (
        const directive of ["default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"]
      ) {
        assert.include(csp, directive)
      }
      assert.notInclude(csp, "unsafe-inline")
      assert.strictEqual(answer.headers.get("x-content-type-options"), "nosniff")
      const script = await fetch(`${server.origin}/assets/app.js`)
      assert.strictEqual(script.status, 200)
      assert.strictEqual(script.headers.get("content-security-policy"), csp)

      const context = await chromium.context()
      const page = await context.newPage()
      const seen = await watch(page)
      await page.goto(`${server.origin}/`)
      await page.fill("#api-key", "not-the-key")
      await page.press("#api-key", "Enter")
      await page.waitForSelector("#sign-in-error:text('not accepted')")
      assert.include(await page.textContent("#sign-in-error"), "The API key is not valid for this server")
      assert.isTrue(await page.isHidden("#convert"))
      await screenshot(page, "sign-in-refused")
      await page.fill("#api-key", key)
      await page.press("#api-key", "Enter")
      await page.waitForSelector("#convert:not([hidden])")
      assert.strictEqual(await page.textContent("#who-key"), "Signed in with key#1")
      assert.strictEqual(await page.evaluate(() => sessionStorage.getItem("pdf-transform.key")), key)
      assert.deepStrictEqual(await seen.violations(), [])
      assert.deepStrictEqual(seen.errors, [])
      await context.close()
    },
    60_000
  )

  it(
    "3 dropped PDFs complete; the rendered Markdown shows each one's heading; both downloads are byte-identical to /v1's",
    async () => {
      const context = await chromium.context()
      const page = await context.newPage()
      const seen = await watch(page)
      await signIn(page, server.origin, key)
      await page.check("#to-epub")
      await drop(page, documents)
      await screenshot(page, "converting")
      for (const document of documents) {
        for (const format of ["markdown", "epub"] as const) {
          assert.strictEqual(await phaseOf(page, document.name, format, ["completed", "failed"], 90_000), "completed")
        }
      }
      await screenshot(page, "completed")
      const ids = await sessionIds(page)
      for (const document of documents) {
        const markdown = await outputOf(server.origin, "markdown", ids[`${document.name}:markdown`]!)
        for (const format of ["markdown", "epub"] as const) {
          const [download] = await Promise.all([
            page.waitForEvent("download"),
            taskRow(page, document.name, format).getByRole("button", { name: /^Download/ }).click()
          ])
          const bytes = Fs.readFileSync((await download.path())!)
          const expected = format === "markdown"
            ? markdown
            : await outputOf(server.origin, format, ids[`${document.name}:${format}`]!)
          assert.isTrue(bytes.equals(expected), `${document.name} ${format}: the page's download is /v1's`)
          assert.strictEqual(
            download.suggestedFilename(),
            document.name.replace(/\.pdf$/, format === "markdown" ? ".md" : ".epub")
          )
        }
        await taskRow(page, document.name, "markdown").getByRole("link", { name: "View" }).click()
        const heading = firstHeading(markdown.toString("utf8"))
        await page.locator("#rendered").locator("h1, h2, h3, h4, h5, h6", { hasText: heading }).first().waitFor()
        assert.strictEqual(await page.textContent("#source"), markdown.toString("utf8"))
        await page.locator("#preview iframe").waitFor()
        if (document === documents[0]) await screenshot(page, "result")
        await page.goBack()
      }
      assert.deepStrictEqual(seen.dialogs, [])
      assert.deepStrictEqual(await seen.violations(), [])
      await context.close()
    },
    150_000
  )

  it("a PDF that cannot be read fails, and the page shows the converter's reason", async () => {
    const context = await chromium.context()
    const page = await context.newPage()
    await signIn(page, server.origin, key)
    await page.setInputFiles("#files", {
      name: "invalid.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from(corpus("broken/ocrmypdf-invalid.pdf").bytes)
    })
    assert.strictEqual(await phaseOf(page, "invalid.pdf", "markdown", ["completed", "failed"]), "failed")
    assert.match(
      (await taskRow(page, "invalid.pdf", "markdown").locator(".state").textContent()) ?? "",
      /^Failed: Not a readable PDF: .+/
    )
    await screenshot(page, "failed")
    await context.close()
  }, 60_000)

  it(
    "a PDF whose text is a script, an image with onerror and a javascript: link shows them as text, and runs nothing",
    async () => {
      const context = await chromium.context()
      const page = await context.newPage()
      const seen = await watch(page)
      await signIn(page, server.origin, key)
      await drop(page, [{ name: "hostile.pdf", bytes: await hostilePdf() }])
      assert.strictEqual(await phaseOf(page, "hostile.pdf", "markdown", ["completed", "failed"]), "completed")
      await taskRow(page, "hostile.pdf", "markdown").getByRole("link", { name: "View" }).click()
      await page.locator("#rendered", { hasText: "alert(3)" }).waitFor()
      const rendered = (await page.textContent("#rendered")) ?? ""
      for (const line of hostileLines) assert.include(rendered, line)
      assert.strictEqual(
        await page.locator("#rendered script, #rendered img, #rendered iframe, #rendered [onerror]").count(),
        0
      )
      assert.strictEqual(await page.locator("#rendered a[href^='javascript']").count(), 0)
      // Long enough for an image's error handler or a timer to have run.
      await page.waitForTimeout(500)
      assert.deepStrictEqual(seen.dialogs, [])
      assert.deepStrictEqual(seen.errors, [])
      assert.deepStrictEqual(await seen.violations(), [])
      assert.notInclude(seen.requested, "/x")
      await context.close()
    },
    60_000
  )

  it(
    "axe finds no serious or critical violation in any view; the keyboard reaches everything; a phone's screen fits",
    async () => {
      const seed = await chromium.context()
      const first = await seed.newPage()
      await signIn(first, server.origin, key)
      await first.setInputFiles("#files", {
        name: "one-page.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from(await hostilePdf())
      })
      await phaseOf(first, "one-page.pdf", "markdown", ["completed"])
      const storageState = await seed.storageState()
      await seed.close()

      // axe is a script the page's CSP refuses: this context bypasses it.
      const context = await chromium.context({ bypassCSP: true, storageState })
      const page = await context.newPage()
      await page.goto(`${server.origin}/`)
      await page.fill("#api-key", "not-the-key")
      await page.press("#api-key", "Enter")
      await page.waitForSelector("#sign-in-error:text('not accepted')")
      await assertAccessible(page, "sign-in with an error")
      await page.fill("#api-key", key)
      await page.press("#api-key", "Enter")
      await page.waitForSelector(".task[data-phase=completed]")
      await assertAccessible(page, "the documents")
      await page.goto(`${server.origin}/#operator`)
      await page.waitForSelector("#overview table")
      await assertAccessible(page, "the operator view")
      await page.goto(`${server.origin}/#convert`)

      // The keyboard alone: from the file chooser, Tab reaches the document's View link; Enter opens it.
      await page.focus("#files")
      let reached = false
      for (let i = 0; i < 20 && !reached; i++) {
        await page.keyboard.press("Tab")
        reached = await page.evaluate(() => document.activeElement?.textContent === "View")
      }
      assert.isTrue(reached, "Tab reaches the View link")
      await page.keyboard.press("Enter")
      await page.waitForSelector("#result:not([hidden]) #rendered h1, #result:not([hidden]) #rendered h2")
      await assertAccessible(page, "a result")
      await page.focus("#tab-rendered")
      await page.keyboard.press("ArrowRight")
      assert.isTrue(await page.isVisible("#source"))
      assert.isTrue(await page.evaluate(() => document.activeElement?.id === "tab-source"))
      await context.close()

      const phone = await chromium.context({ phone: true, storageState })
      const small = await phone.newPage()
      await signIn(small, server.origin, key)
      await small.waitForSelector(".task[data-phase=completed]")
      assert.isTrue(await fitsWidth(small), "the documents fit a phone's width")
      await screenshot(small, "phone-documents")
      await small.getByRole("link", { name: "View" }).first().click()
      await small.waitForSelector("#rendered h1, #rendered h2")
      assert.isTrue(await fitsWidth(small), "a result fits a phone's width")
      await screenshot(small, "phone-result")
      await phone.close()
    },
    90_000
  )
})

describe("the page, with a converter whose Markdown is hostile", () => {
  const markdown = [
    "# Hostile Markdown",
    "<script>alert(1)</script>",
    "<img src=x onerror=\"alert(2)\">",
    "[click me](javascript:alert(3))",
    "<a href=\"javascript:alert(4)\">link</a>",
    "![picture](x\" onerror=\"alert(5))",
    "<iframe src=\"javascript:alert(6)\"></iframe>",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg3KTwvc2NyaXB0Pg==)"
  ].join("\n\n")
  let server: Running
  beforeAll(async () => {
    server = await start(fixedMarkdown(markdown), { remoteFetch: { enabled: true } })
  }, 60_000)
  afterAll(() => server?.dispose())

  it("with remote fetching on, addresses can be given; one the server refuses shows its reason", async () => {
    const context = await chromium.context()
    const page = await context.newPage()
    await signIn(page, server.origin, key)
    await page.fill("#urls", "http://127.0.0.1:9/private.pdf")
    await page.getByRole("button", { name: "Convert the addresses" }).click()
    assert.strictEqual(await phaseOf(page, "private.pdf", "markdown", ["failed", "processing", "completed"]), "failed")
    assert.match(
      (await taskRow(page, "private.pdf", "markdown").locator(".state").textContent()) ?? "",
      /^Failed: refused: .*not a public address/
    )
    await context.close()
  }, 60_000)

  it("raw HTML shows as text, unsafe links are not links, and no dialog opens nor script runs", async () => {
    const context = await chromium.context()
    const page = await context.newPage()
    const seen = await watch(page)
    await signIn(page, server.origin, key)
    await drop(page, [{ name: "raw.pdf", bytes: corpus("structure/acorn-readme.pdf").bytes }])
    await phaseOf(page, "raw.pdf", "markdown", ["completed"])
    await taskRow(page, "raw.pdf", "markdown").getByRole("link", { name: "View" }).click()
    await page.locator("#rendered h1", { hasText: "Hostile Markdown" }).waitFor()
    const rendered = (await page.textContent("#rendered")) ?? ""
    for (const text of ["<script>alert(1)</script>", "<img src=x onerror=\"alert(2)\">", "<iframe src="]) {
      assert.include(rendered, text)
    }
    assert.strictEqual(await page.locator("#rendered script, #rendered iframe, #rendered [onerror]").count(), 0)
    assert.strictEqual(await page.locator("#rendered a[href^='javascript'], #rendered a[href^='data']").count(), 0)
    await page.waitForTimeout(500)
    assert.deepStrictEqual(seen.dialogs, [])
    assert.deepStrictEqual(seen.errors, [])
    assert.deepStrictEqual(await seen.violations(), [])
    await screenshot(page, "hostile-markdown")
    await context.close()
  }, 60_000)
})

describe("the page, with simulated conversions and a low rate limit", () => {
  let server: Running
  beforeAll(async () => {
    server = await start(SimulatedConverter.layer({ duration: "2 seconds", progressSteps: 4 }), {
      limits: { rate: { limit: 1, window: "2 seconds" }, quota: false, concurrency: false }
    })
  }, 60_000)
  afterAll(() => server?.dispose())

  /** Every task the server keeps, whatever its state. */
  const completedAndRunning = async (origin: string): Promise<number> => {
    const answer = await fetch(`${origin}/api/overview`, { headers: { authorization: `Bearer ${key}` } })
    const { tasks } = await answer.json() as { tasks: Record<string, number> }
    return Object.values(tasks).reduce((a, b) => a + b, 0)
  }

  const countTasks = async (page: Page) => {
    const ids = await sessionIds(page)
    return new Set(Object.values(ids)).size
  }

  it("429s are shown and ridden out: every document completes, each submitted once", async () => {
    const context = await chromium.context()
    const page = await context.newPage()
    await signIn(page, server.origin, key)
    const pdf = corpus("structure/acorn-readme.pdf").bytes
    const files = ["a.pdf", "b.pdf", "c.pdf"].map((name) => ({ name, bytes: pdf }))
    // Another client of the key takes the one token just before the page's first submit, which
    // gets a 429 with no hint before it; the later ones wait as the RateLimit fields say.
    const url = await uploadDirectly(server.origin, pdf)
    let first = true
    await page.route("**/v1/pdf-transform-markdown/submit", async (route) => {
      if (first) await submitDirectly(server.origin, url)
      first = false
      await route.continue()
    })
    await drop(page, files)
    await page.locator(".task[data-phase=rate-limited]").first().waitFor({ timeout: 20_000 })
    assert.match(
      (await page.locator(".task[data-phase=rate-limited] .state").first().textContent()) ?? "",
      /Rate limited \(429 rate_exceeded\): submitting again in \d+ s/
    )
    await screenshot(page, "rate-limited")
    for (const file of files) {
      assert.strictEqual(await phaseOf(page, file.name, "markdown", ["completed", "failed"]), "completed")
    }
    const limited = await page.locator(".task .limited").allTextContents()
    assert.isAbove(limited.length, 0, "some submit was refused with 429")
    for (const text of limited) assert.match(text, /^429s ridden out: [1-9]\d*$/)
    // One task per document and the test's own: the server made four, and the page knows three.
    const overview =
      await (await fetch(`${server.origin}/api/overview`, { headers: { authorization: `Bearer ${key}` } })).json() as {
        tasks: { completed: number; queued: number; running: number; failed: number }
      }
    assert.deepStrictEqual(overview.tasks, { queued: 0, running: 0, completed: 4, failed: 0 })
    assert.strictEqual(await countTasks(page), 3)
    await context.close()
  }, 90_000)

  it("a submit whose answer is lost shows as unknown and is not sent again", async () => {
    const context = await chromium.context()
    const page = await context.newPage()
    await signIn(page, server.origin, key)
    const tasksBefore = await completedAndRunning(server.origin)
    let submits = 0
    // The request reaches the server, which makes the task; its answer never reaches the page.
    await page.route("**/v1/pdf-transform-markdown/submit", async (route) => {
      submits += 1
      await route.fetch()
      await route.abort("connectionreset")
    })
    await page.setInputFiles("#files", {
      name: "lost.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from(corpus("structure/acorn-readme.pdf").bytes)
    })
    assert.strictEqual(await phaseOf(page, "lost.pdf", "markdown", ["unknown", "processing", "failed"]), "unknown")
    assert.match(
      (await taskRow(page, "lost.pdf", "markdown").locator(".state").textContent()) ?? "",
      /^Unknown: no answer came .*the task may or may not exist$/
    )
    await page.waitForTimeout(1500)
    assert.strictEqual(submits, 1)
    assert.strictEqual(await completedAndRunning(server.origin), tasksBefore + 1)
    await screenshot(page, "unknown")
    await context.close()
  }, 60_000)

  it("a PDF over 5 MiB goes up in parts (the chunked protocol) and converts from its cache:// URL", async () => {
    const context = await chromium.context()
    const page = await context.newPage()
    await signIn(page, server.origin, key)
    const small = corpus("structure/acorn-readme.pdf").bytes
    const large = new Uint8Array(6 * 1024 * 1024)
    large.set(small)
    await page.setInputFiles("#files", { name: "large.pdf", mimeType: "application/pdf", buffer: Buffer.from(large) })
    assert.strictEqual(await phaseOf(page, "large.pdf", "markdown", ["completed", "failed"]), "completed")
    const kept = await page.evaluate(() =>
      (JSON.parse(localStorage.getItem("pdf-transform.documents.v1") ?? "[]") as Array<{ pdfURL?: string }>)[0]?.pdfURL
    )
    assert.match(kept ?? "", /^cache:\/\/.+\.pdf$/)
    // The preview opens the uploaded file with the key: the parts, whole again.
    const [file] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname.startsWith("/v1/files/")),
      taskRow(page, "large.pdf", "markdown").getByRole("link", { name: "View" }).click()
    ])
    assert.strictEqual(file.status(), 200)
    const previewed = Number((await file.allHeaders())["content-length"])
    assert.strictEqual(previewed, large.byteLength)
    await context.close()
  }, 60_000)

  it("a reload in the middle of conversions brings the list back, and the tasks complete", async () => {
    const context = await chromium.context()
    const page = await context.newPage()
    await signIn(page, server.origin, key)
    await page.setInputFiles("#files", {
      name: "reloaded.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from(corpus("structure/acorn-readme.pdf").bytes)
    })
    await phaseOf(page, "reloaded.pdf", "markdown", ["processing"])
    const before = await sessionIds(page)
    await page.reload()
    await page.waitForSelector("#convert:not([hidden])")
    // Back from this browser's storage, still converting, then completed: the same task, not a new one.
    assert.strictEqual(await phaseOf(page, "reloaded.pdf", "markdown", ["processing"]), "processing")
    assert.strictEqual(await phaseOf(page, "reloaded.pdf", "markdown", ["completed"]), "completed")
    assert.deepStrictEqual(await sessionIds(page), before)
    await context.close()
  }, 60_000)
})

describe("the operator view, on two nodes sharing PostgreSQL", () => {
  let postgres: Postgres
  beforeAll(async () => {
    postgres = await startPostgres()
  }, 120_000)
  afterAll(() => postgres?.stop())

  /** The nodes table: node name to its running and finished counts. */
  const nodesShown = async (page: Page) => {
    const rows = await page.locator("#overview table:has(caption:text('Conversions per node')) tbody tr").evaluateAll(
      (rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? ""))
    )
    return new Map(
      rows.map(([node, running, finished]) => [node, { running: Number(running), finished: Number(finished) }])
    )
  }

  it("shows both nodes converting, then what each finished", async () => {
    const url = postgres.createDatabase()
    const nodes = await Promise.all([1, 2].map((n) =>
      Processes.start({
        TEST_DATABASE_URL: url,
        TEST_NODE_ID: `node-${n}`,
        TEST_CLAIM_LEASE_MS: "10000",
        TEST_CONVERSION_MS: "4000",
        // One conversion at a time per node: the second task finds the first node busy, whatever the pace of submits.
        TEST_MAX_CONCURRENT: "1"
      })
    ))
    const context = await chromium.context()
    const page = await context.newPage()
    await signIn(page, nodes[0]!.origin, Processes.key)
    const files = [1, 2, 3, 4].map((n) => ({
      name: `part-${n}.pdf`,
      bytes: corpus("structure/acorn-readme.pdf").bytes
    }))
    await drop(page, files)
    await phaseOf(page, "part-2.pdf", "markdown", ["processing", "completed"], 30_000)
    await page.goto(`${nodes[0]!.origin}/#operator`)
    await page.waitForSelector("#overview table")
    await page.waitForFunction(
      () => {
        const rows = [...document.querySelectorAll("#overview table:nth-of-type(2) tbody tr")]
        return rows.filter((row) => Number(row.children[1]?.textContent) > 0).length >= 2
      },
      undefined,
      { timeout: 20_000 }
    )
    const busy = await nodesShown(page)
    assert.deepStrictEqual([...busy.keys()].sort(), ["node-1", "node-2"])
    assert.isAbove(busy.get("node-1")!.running, 0)
    assert.isAbove(busy.get("node-2")!.running, 0)
    await screenshot(page, "operator-two-nodes")
    await page.waitForFunction(
      () => {
        const cells = document.querySelectorAll("#overview table:first-of-type tbody td")
        return cells[2]?.textContent === "4"
      },
      undefined,
      { timeout: 30_000 }
    )
    const done = await nodesShown(page)
    assert.strictEqual(done.get("node-1")!.running + done.get("node-2")!.running, 0)
    assert.strictEqual(done.get("node-1")!.finished + done.get("node-2")!.finished, 4)
    assert.isAbove(done.get("node-2")!.finished, 0)
    const keys = await page.locator("#overview table:has(caption:text('Keys')) tbody tr").allTextContents()
    assert.strictEqual(keys.length, 1)
    assert.include(keys[0], "key#1")
    assert.include(keys[0], "4 completed, 0 failed")
    await context.close()
  }, 120_000)
})
