// Bundles the command into dist/ (ES modules, minified, split at the dynamic imports), so that
// `pdf-transform --help` loads a few files instead of hundreds of modules, and a conversion on this
// machine loads the server and the converter as a few files too. The converter's worker thread is
// a bundle of its own, dist/internal/worker.js, where the converter's pool looks for it (beside its
// own module). What cannot be bundled is a dependency: native modules, tesseract.js (it starts its
// own worker script) and the data files PDFium and OCR read (the WebAssembly, the language models).
import * as esbuild from "esbuild"
import { execFileSync, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { cacheFile, lines } from "./bin/help.mjs"

const root = Path.dirname(fileURLToPath(import.meta.url))
const outdir = Path.join(root, "dist")
const converter = Path.join(root, "..", "converter", "src")

// Two CommonJS packages that @effect/platform-node's HTTP server module loads and the embedded
// server never runs: undici (through the HTTP client module it imports) and ws (WebSocket upgrades).
// Each becomes a module that evaluates the bundled package at the first use of what platform-node
// uses of it, so the command's start does not pay for them.
const lazy = (names) =>
  [
    `let loaded`,
    `const load = () => loaded ??= require(${JSON.stringify(names.package)})`,
    ...names.constructors.map((name) => `export function ${name}(...args) { return new (load().${name})(...args) }`),
    ...names.functions.map((name) => `export const ${name} = (...args) => load().${name}(...args)`),
    `export default { ${[...names.constructors, ...names.functions].join(", ")} }`
  ].join("\n")
const platformNode = /[\\/]@effect[\\/]platform-node[\\/]dist[\\/]esm[\\/]/
const lazyDependencies = {
  name: "lazy-dependencies",
  setup(build) {
    build.onLoad({ filter: /[\\/]@effect[\\/]platform-node[\\/]dist[\\/]esm[\\/]Undici\.js$/ }, () => ({
      loader: "js",
      contents: lazy({ package: "undici", constructors: ["Agent"], functions: ["getGlobalDispatcher"] })
    }))
    build.onResolve(
      { filter: /^ws$/ },
      (args) =>
        args.namespace === "file" && platformNode.test(args.importer) && args.importer.endsWith("httpServer.js") ?
          { path: args.importer, namespace: "lazy-ws" } :
          undefined
    )
    build.onLoad({ filter: /.*/, namespace: "lazy-ws" }, (args) => ({
      loader: "js",
      resolveDir: Path.dirname(args.path),
      contents: lazy({ package: "ws", constructors: ["WebSocketServer"], functions: [] })
    }))
  }
}

const common = {
  absWorkingDir: root,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: process.env.NO_MINIFY === undefined,
  sourcemap: "linked",
  // better-sqlite3 (the reference server's storage) loads a native module found beside its own files.
  // pg-native is pg's optional native binding, not installed: pg uses its JavaScript client.
  external: ["tsx", "tsx/*", "better-sqlite3", "pg-native", "tesseract.js"],
  // Some bundled CommonJS modules call require(); ES modules have none of their own.
  banner: {
    js:
      "import { createRequire as __createRequire } from \"node:module\"; const require = __createRequire(import.meta.url);"
  },
  logLevel: "warning",
  metafile: true,
  plugins: [lazyDependencies]
}

Fs.rmSync(outdir, { recursive: true, force: true })
const command = await esbuild.build({
  ...common,
  entryPoints: { bin: "src/bin.ts" },
  outdir,
  splitting: true,
  chunkNames: "chunk-[hash]"
})
const worker = await esbuild.build({
  ...common,
  entryPoints: { worker: Path.join(converter, "internal", "worker.ts") },
  outdir: Path.join(outdir, "internal")
})
// OCR's thread script, which the worker starts by its path beside its own module.
Fs.copyFileSync(
  Path.join(converter, "internal", "tesseractThread.cjs"),
  Path.join(outdir, "internal", "tesseractThread.cjs")
)

// Which sources went into which file of dist/: the startup test reads it (not shipped: build/ is not in "files").
Fs.mkdirSync(Path.join(root, "build"), { recursive: true })
Fs.writeFileSync(
  Path.join(root, "build", "metafile.json"),
  JSON.stringify({
    inputs: { ...command.metafile.inputs, ...worker.metafile.inputs },
    outputs: { ...command.metafile.outputs, ...worker.metafile.outputs }
  })
)

// The server's web page, built afresh and shipped in dist/web, where the bundled server reads it
// when `serve` starts (see the server's src/internal/webAssets.ts).
const page = Path.join(root, "..", "server", "web")
execFileSync(process.execPath, [Path.join(page, "build.mjs")], { stdio: "inherit" })
Fs.cpSync(Path.join(page, "dist"), Path.join(outdir, "web"), { recursive: true })

// Each help and --version as the bundle prints them, styled (stdout taken for a terminal) and
// plain: bin/help.mjs answers those command lines from this file without loading the bundle.
const terminal = "data:text/javascript,process.stdout.isTTY=true"
const { NO_COLOR: _noColor, ...environment } = process.env
const answers = {}
for (const line of lines) {
  const run = (args, env) => {
    const result = spawnSync(process.execPath, [...args, Path.join(outdir, "bin.js"), ...line], {
      env,
      encoding: "utf8"
    })
    if (result.stderr !== "") throw new Error(`pdf-transform ${line.join(" ")}: ${result.stderr}`)
    return result
  }
  const plain = run([], { ...environment, NO_COLOR: "1" })
  answers[JSON.stringify(line)] = {
    code: plain.status,
    plain: plain.stdout,
    styled: run(["--import", terminal], { ...environment, TERM: "xterm-256color" }).stdout
  }
}
Fs.writeFileSync(cacheFile, JSON.stringify(answers))
