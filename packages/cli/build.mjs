// Bundles the command into dist/ (ES modules, minified, split at the dynamic imports), so that
// `pdf-transform --help` loads one small file instead of hundreds of modules. The local converter
// stays outside the bundle: it is loaded from its own package when a conversion runs on this
// machine (see src/internal/liveConverter.ts), with its worker threads and native modules.
import * as esbuild from "esbuild"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const root = Path.dirname(fileURLToPath(import.meta.url))
const outdir = Path.join(root, "dist")

Fs.rmSync(outdir, { recursive: true, force: true })
await esbuild.build({
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
  external: ["tsx", "tsx/*", "@pdf-transform/converter/ConverterLive"],
  // Some bundled CommonJS modules call require(); ES modules have none of their own.
  banner: {
    js:
      "import { createRequire as __createRequire } from \"node:module\"; const require = __createRequire(import.meta.url);"
  },
  logLevel: "warning"
})
