// What the benchmark scripts share: bundling an entry point with esbuild (the runs are plain node,
// never a TS loader), and starting the bench server in its own process.
import { build } from "esbuild"
import { spawn } from "node:child_process"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const here = Path.dirname(fileURLToPath(import.meta.url))

/** Where the bundles go. */
export const out = Path.join(here, "..", ".bench-out")

/** Bundles `bench/<name>.ts` to `.bench-out/<name>.mjs`. */
export const bundle = (name) =>
  build({
    entryPoints: [Path.join(here, `${name}.ts`)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: Path.join(out, `${name}.mjs`),
    logLevel: "warning",
    banner: {
      js:
        "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
    }
  })

/** Starts the bundled bench server with `env` added to this process's; answers it and its base URL once it listens. */
export const startServer = (env) =>
  new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [Path.join(out, "server.mjs")], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let buffer = ""
    proc.stdout.on("data", (chunk) => {
      buffer += chunk
      const line = buffer.split("\n")[0]
      if (buffer.includes("\n")) resolve({ proc, baseUrl: JSON.parse(line).baseUrl })
    })
    proc.on("error", reject)
    proc.on("exit", (code) => reject(new Error(`server exited ${code}`)))
  })
