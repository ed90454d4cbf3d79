/**
 * Debian's chromium driven by playwright-core (which never downloads a browser): the executable
 * `which chromium` names, headless, without the background traffic chromium makes by default (it
 * floods a closed network), in a fresh profile (playwright makes one per launch and removes it).
 * `pnpm tools` installs chromium.
 */
import { execFileSync } from "node:child_process"
import type { Browser, BrowserContext } from "playwright-core"
import { chromium } from "playwright-core"

const executable = (): string => {
  try {
    return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim()
  } catch {
    throw new Error("chromium not found: install it (`pnpm tools` installs Debian's chromium)")
  }
}

export interface Chromium {
  /** A context of its own (cookies, storage), with the page's CSP in force unless `bypassCSP`. */
  readonly context: (options?: {
    readonly bypassCSP?: boolean
    readonly phone?: boolean
    /** Cookies and local storage to start with (another context's `storageState()`). */
    readonly storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>
  }) => Promise<BrowserContext>
  readonly close: () => Promise<void>
}

export const launch = async (): Promise<Chromium> => {
  const browser: Browser = await chromium.launch({
    executablePath: executable(),
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ],
    timeout: 60_000
  })
  return {
    context: (options = {}) =>
      browser.newContext({
        bypassCSP: options.bypassCSP ?? false,
        acceptDownloads: true,
        ...(options.storageState === undefined ? {} : { storageState: options.storageState }),
        ...(options.phone === true
          ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true }
          : { viewport: { width: 1280, height: 900 } })
      }),
    close: () => browser.close()
  }
}
