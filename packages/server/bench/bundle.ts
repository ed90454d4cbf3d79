/**
 * The benchmarked server as users run it: bench/server.ts bundled into one JavaScript file (as the
 * CLI's `pdf-transform serve` is), with the converter loaded from its JavaScript build. Run from
 * TypeScript with tsx, the server and every converter worker would also carry tsx's loader and the
 * sources' maps: about 60 MB of RSS that no user pays (measured with bench/load.ts both ways).
 * BENCH_SOURCES=1 runs the TypeScript sources instead, for profiles that name source lines.
 */
import * as esbuild from "esbuild"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const here = Path.dirname(fileURLToPath(import.meta.url))
const packageRoot = Path.join(here, "..")
const require = createRequire(import.meta.url)

/** The converter's JavaScript build, brought up to date with its sources first. */
const builtConverter = (): string => {
  // The package's exports point at its sources: src/ConverterLive.ts.
  const converterRoot = Path.dirname(Path.dirname(require.resolve("@pdf-transform/converter/ConverterLive")))
  const tsc = require.resolve("typescript/bin/tsc")
  ChildProcess.execFileSync(process.execPath, [tsc, "-b", Path.join(converterRoot, "tsconfig.src.json")], {
    stdio: "inherit"
  })
  return Path.join(converterRoot, "build", "esm", "ConverterLive.js")
}

/**
 * Node's arguments that start the bench server: the bundle's path (written under this package's
 * node_modules, so that what stays outside it resolves from here), or tsx and the sources.
 */
export const serverEntry = async (): Promise<ReadonlyArray<string>> => {
  if (process.env["BENCH_SOURCES"] === "1") return ["--import", "tsx", Path.join(here, "server.ts")]
  const outdir = Path.join(packageRoot, "node_modules", ".cache", "bench-server")
  const converter = builtConverter()
  // better-sqlite3 is a native module, found beside its own files: where @effect/sql-sqlite-node resolves it.
  const betterSqlite = createRequire(require.resolve("@effect/sql-sqlite-node/package.json")).resolve("better-sqlite3")
  await esbuild.build({
    absWorkingDir: packageRoot,
    entryPoints: { server: Path.join(here, "server.ts") },
    outdir,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // pg-native is pg's optional native binding, not installed: pg uses its JavaScript client.
    external: ["pg-native"],
    plugins: [{
      name: "outside-the-bundle",
      setup: (build) => {
        build.onResolve(
          { filter: /^@pdf-transform\/converter\/ConverterLive$/ },
          () => ({ path: converter, external: true })
        )
        build.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: betterSqlite, external: true }))
      }
    }],
    // Some bundled CommonJS modules call require(); ES modules have none of their own.
    banner: {
      js:
        "import { createRequire as __createRequire } from \"node:module\"; const require = __createRequire(import.meta.url);"
    },
    logLevel: "warning"
  })
  Fs.writeFileSync(Path.join(outdir, "package.json"), JSON.stringify({ type: "module" }))
  return [Path.join(outdir, "server.js")]
}
