// Stops `pnpm verify` at once, with the exact install line, when a system tool the tests need is
// missing (a test would otherwise fail half-way through, or worse, be tempted to skip).
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"

const has = (command, args) => {
  try {
    execFileSync(command, args, { stdio: "ignore" })
    return true
  } catch {
    // Not installed, or not runnable: either way the tests cannot use it.
    return false
  }
}

const missing = [
  has("pdftotext", ["-v"]) ? undefined : "pdftotext (package poppler-utils)",
  has("java", ["-version"]) ? undefined : "java (a Java runtime, for epubcheck)",
  existsSync("/usr/share/java/epubcheck.jar")
    ? undefined
    : "epubcheck (package epubcheck: /usr/share/java/epubcheck.jar)",
  has("tmux", ["-V"]) ? undefined : "tmux (package tmux: the terminal the CLI's live view is tested in)",
  has("chromium", ["--version"])
    ? undefined
    : "chromium (package chromium: the browser the server's web page is tested in)"
].filter((tool) => tool !== undefined)

if (missing.length > 0) {
  console.error(`The tests need: ${missing.join(", ")}.`)
  console.error("Install them with `pnpm tools` (Debian/Ubuntu, as root or with sudo), or:")
  console.error("  sudo apt-get install -y --no-install-recommends poppler-utils epubcheck tmux chromium")
  process.exit(1)
}
