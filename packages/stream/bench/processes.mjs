// What the benchmark scripts share: bundling an entry point with esbuild (the runs are plain node,
// never a TS loader), and starting the bench server in its own process.
import { build } from "esbuild"
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const here = Path.dirname(fileURLToPath(import.meta.url))

/** Where the bundles go. */
export const out = Path.join(here, "..", ".bench-out")

/**
 * better-sqlite3 (the server's storage) is a native module that finds its binary beside its own
 * files: it stays outside the bundle, loaded from where its importer (@effect/sql-sqlite-node) resolves it.
 */
const nativeOutside = {
  name: "native-outside",
  setup: (build) => {
    build.onResolve({ filter: /^better-sqlite3$/ }, (args) => ({
      path: createRequire(Path.join(args.resolveDir, "importer.js")).resolve("better-sqlite3"),
      external: true
    }))
  }
}

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
    // pg-native is pg's optional native binding, not installed: pg uses its JavaScript client.
    external: ["pg-native"],
    plugins: [nativeOutside],
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
      // The server's own log lines (a warning at start, say) may come first.
      const line = buffer.split("\n").find((text) => text.startsWith("{\"baseUrl\""))
      if (line !== undefined) resolve({ proc, baseUrl: JSON.parse(line).baseUrl })
    })
    proc.on("error", reject)
    proc.on("exit", (code) => reject(new Error(`server exited ${code}`)))
  })
