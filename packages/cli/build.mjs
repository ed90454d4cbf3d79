// Bundles the command into dist/ (ES modules, minified, split at the dynamic imports), so that
// `pdf-transform --help` loads one small file instead of hundreds of modules. The local converter
// stays outside the bundle: it is loaded from its own package when a conversion runs on this
// machine (see src/internal/liveConverter.ts), with its worker threads and native modules.
import * as esbuild from "esbuild"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const root = Path.dirname(fileURLToPath(import.meta.url))
const outdir = Path.join(root, "dist")

Fs.rmSync(outdir, { recursive: true, force: true })
const { metafile } = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { bin: "src/bin.ts" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  sourcemap: "linked",
  chunkNames: "chunk-[hash]",
  // better-sqlite3 (the reference server's storage) loads a native module found beside its own files.
  // pg-native is pg's optional native binding, not installed: pg uses its JavaScript client.
  external: ["tsx", "tsx/*", "@pdf-transform/converter/ConverterLive", "better-sqlite3", "pg-native"],
  // Some bundled CommonJS modules call require(); ES modules have none of their own.
  banner: {
    js:
      "import { createRequire as __createRequire } from \"node:module\"; const require = __createRequire(import.meta.url);"
  },
  logLevel: "warning",
  metafile: true
})
// Which sources went into which file of dist/: the startup test reads it (not shipped: build/ is not in "files").
Fs.mkdirSync(Path.join(root, "build"), { recursive: true })
Fs.writeFileSync(Path.join(root, "build", "metafile.json"), JSON.stringify(metafile))

// The server's web page, built afresh and shipped in dist/web, where the bundled server reads it
// when `serve` starts (see the server's src/internal/webAssets.ts).
const page = Path.join(root, "..", "server", "web")
execFileSync(process.execPath, [Path.join(page, "build.mjs")], { stdio: "inherit" })
Fs.cpSync(Path.join(page, "dist"), Path.join(outdir, "web"), { recursive: true })

// In the repository, the converter's JavaScript build too: the command loads it instead of
// compiling the converter's TypeScript with tsx at every start (see src/internal/liveConverter.ts).
const converterProject = Path.join(root, "..", "converter", "tsconfig.src.json")
const tsc = Path.join(root, "..", "..", "node_modules", "typescript", "bin", "tsc")
if (Fs.existsSync(converterProject) && Fs.existsSync(tsc)) {
  execFileSync(process.execPath, [tsc, "-b", converterProject], { stdio: "inherit" })
}
