/**
 * Driving the page in the browser: signing in, dropping files, reading the list, what the page
 * must never do (a dialog, a script of a document, a request the CSP blocks), axe-core, and
 * screenshots into `test/browser/screenshots/` (not committed).
 */
import { assert } from "@effect/vitest"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import type { Page } from "playwright-core"

const screenshots = fileURLToPath(new URL("screenshots/", import.meta.url))

export const screenshot = async (page: Page, name: string): Promise<void> => {
  Fs.mkdirSync(screenshots, { recursive: true })
  await page.screenshot({ path: Path.join(screenshots, `${name}.png`), fullPage: true })
}

/** What the page did that it must not: dialogs opened, CSP violations, script errors. */
export interface Watch {
  readonly dialogs: Array<string>
  readonly errors: Array<string>
  /** Requests for `path`s the test names as bait (an `<img src=x>` of a document). */
  readonly requested: Array<string>
  readonly violations: () => Promise<ReadonlyArray<string>>
}

/** Watches `page` from its first script on; every dialog is dismissed and recorded. */
export const watch = async (page: Page): Promise<Watch> => {
  const dialogs: Array<string> = []
  const errors: Array<string> = []
  const requested: Array<string> = []
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  page.on("pageerror", (error) => errors.push(error.message))
  page.on("request", (request) => requested.push(new URL(request.url()).pathname))
  await page.addInitScript(() => {
    const seen: Array<string> = []
    Object.defineProperty(window, "__violations", { value: seen })
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`)
    })
  })
  return {
    dialogs,
    errors,
    requested,
    violations: () => page.evaluate(() => (window as unknown as { __violations: Array<string> }).__violations)
  }
}

export const signIn = async (page: Page, origin: string, key: string): Promise<void> => {
  await page.goto(`${origin}/`)
  await page.fill("#api-key", key)
  await page.press("#api-key", "Enter")
  await page.waitForSelector("#convert:not([hidden])")
}

/** Drops `files` on the drop zone, as a drag from the desktop does. */
export const drop = async (
  page: Page,
  files: ReadonlyArray<{ readonly name: string; readonly bytes: Uint8Array }>
): Promise<void> => {
  const transfer = await page.evaluateHandle((files) => {
    const transfer = new DataTransfer()
    for (const file of files) {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))
      transfer.items.add(new File([bytes], file.name, { type: "application/pdf" }))
    }
    return transfer
  }, files.map((file) => ({ name: file.name, base64: Buffer.from(file.bytes).toString("base64") })))
  await page.dispatchEvent("#drop", "drop", { dataTransfer: transfer })
}

/** A task row of the list: the document's name and the format. */
export const taskRow = (page: Page, name: string, format: "markdown" | "epub") =>
  page.locator(`li.document:has(h4:text-is(${JSON.stringify(name)})) li.task[data-format="${format}"]`)

/** Waits until the row's phase is one of `phases`, within `timeout`; answers it. */
export const phaseOf = async (
  page: Page,
  name: string,
  format: "markdown" | "epub",
  phases: ReadonlyArray<string>,
  timeout = 60_000
): Promise<string> => {
  const row = taskRow(page, name, format)
  const selector = phases.map((phase) => `[data-phase="${phase}"]`).join(", ")
  await row.and(page.locator(selector)).waitFor({ timeout })
  return (await row.getAttribute("data-phase")) ?? ""
}

/** The task ids the page keeps, by document name and format. */
export const sessionIds = (page: Page): Promise<Record<string, string>> =>
  page.evaluate(() => {
    const documents = JSON.parse(localStorage.getItem("pdf-transform.documents.v1") ?? "[]") as Array<
      { name: string; tasks: Array<{ format: string; sessionID?: string }> }
    >
    const ids: Record<string, string> = {}
    for (const document of documents) {
      for (const task of document.tasks) {
        if (task.sessionID !== undefined) ids[`${document.name}:${task.format}`] = task.sessionID
      }
    }
    return ids
  })

const axeSource = Fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/**
 * axe-core on the page as it is now: no serious or critical violation. The page's CSP refuses
 * scripts it did not serve, so axe is injected in a context made with `bypassCSP`.
 */
export const assertAccessible = async (page: Page, what: string): Promise<void> => {
  await page.addScriptTag({ content: axeSource })
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as {
      axe: {
        run: (context: Document, options: object) => Promise<{
          violations: Array<{ id: string; impact?: string | null; nodes: Array<{ target: Array<unknown> }> }>
        }>
      }
    }).axe
    const result = await axe.run(document, { resultTypes: ["violations"] })
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? "",
      targets: v.nodes.map((n) => String(n.target))
    }))
  })
  const serious = violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
  assert.deepStrictEqual(serious, [], `${what}: ${JSON.stringify(serious, null, 2)}`)
}

/** Whether the page fits the viewport's width (nothing to scroll sideways). */
export const fitsWidth = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)
