/**
 * Drives the `pdf-transform` command from a script through `--json`: one JSON object per line
 * (the backend first, one per batch event, a summary last), read as it comes.
 *
 *   tsx src/cli-json.ts [folder] [--to markdown|epub]
 *
 * Default folder: examples/pdfs; outputs in examples/out/json. Needs the command built (`pnpm install`).
 */
import { spawn } from "node:child_process"
import * as Readline from "node:readline"
import { fileURLToPath } from "node:url"

/** The fields of the events this script reads; every event has more (see the CLI's README). */
type Event =
  | { readonly event: "Backend"; readonly backend: string; readonly documents: number }
  | { readonly event: "Completed"; readonly name: string; readonly output: string; readonly bytes: number }
  | {
    readonly event: "Failed"
    readonly name: string
    readonly error: { readonly tag: string; readonly message: string }
  }
  | { readonly event: "Summary"; readonly converted: number; readonly failed: number; readonly exitCode: number }
  | { readonly event: "Queued" | "Uploaded" | "Submitted" | "Progress" | "Skipped" | "Ambiguous" | "NotAttempted" }

const bin = fileURLToPath(new URL("../../packages/cli/bin/pdf-transform.mjs", import.meta.url))
const folder = process.argv[2] ?? fileURLToPath(new URL("../pdfs", import.meta.url))
const to = process.argv.includes("--to") ? process.argv[process.argv.indexOf("--to") + 1] ?? "markdown" : "markdown"
const out = fileURLToPath(new URL("../out/json", import.meta.url))

const child = spawn(process.execPath, [bin, "convert", folder, "--to", to, "--out", out, "--json"], {
  stdio: ["ignore", "pipe", "inherit"]
})
for await (const line of Readline.createInterface({ input: child.stdout })) {
  const event = JSON.parse(line) as Event
  switch (event.event) {
    case "Backend":
      console.log(`${event.documents} documents on ${event.backend}`)
      break
    case "Completed":
      console.log(`ok      ${event.name} -> ${event.output} (${event.bytes} bytes)`)
      break
    case "Failed":
      console.log(`failed  ${event.name}: ${event.error.message} [${event.error.tag}]`)
      break
    case "Summary":
      console.log(`${event.converted} converted, ${event.failed} failed; exit code ${event.exitCode}`)
      process.exitCode = event.exitCode
  }
}
