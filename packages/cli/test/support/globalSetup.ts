/** The end-to-end tests run the bundle, as a person does: it is rebuilt from the sources first. */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL("../../build.mjs", import.meta.url))], { stdio: "inherit" })
}
