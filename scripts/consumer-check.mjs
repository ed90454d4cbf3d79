// The packages as an outside application gets them: built, packed, served by a throwaway registry on
// loopback (only the @pdf-transform scope; everything else comes from the npm registry), installed
// into a project in the system's temporary folder beside an `effect` patch other than the repo's pin.
// Then: exactly one copy of effect and of @effect/platform, publint and attw clean, a program
// type-checked with --strict / NodeNext / skipLibCheck false and run, and the CLI installed with
// `npm install -g` into a temporary prefix answering `--help`.
//
//   node scripts/consumer-check.mjs                  # what CI runs
//   node scripts/consumer-check.mjs --break=core     # the same with effect back under core's dependencies (must fail)
//   node scripts/consumer-check.mjs --no-build       # reuse the packages' current build
//   node scripts/consumer-check.mjs --keep           # keep the temporary folder when it passes
import * as ChildProcess from "node:child_process"
import { execFileSync } from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const root = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")
const args = process.argv.slice(2)
const breakPackage = args.find((arg) => arg.startsWith("--break="))?.slice("--break=".length)
const build = !args.includes("--no-build")
const work = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-consumer-"))
const started = Date.now()
const log = (line) => process.stderr.write(`[consumer-check ${((Date.now() - started) / 1000).toFixed(1)} s] ${line}\n`)
const failures = []
const fail = (line) => {
  failures.push(line)
  log(`FAIL: ${line}`)
}

/**
 * Runs a command without blocking this process (the registry below must answer meanwhile): its
 * output passed through, or captured with `capture: true`.
 */
const spawn = (command, commandArgs, { capture = false, timeout, ...options } = {}) =>
  new Promise((resolve, reject) => {
    const child = ChildProcess.spawn(command, commandArgs, {
      stdio: ["ignore", capture ? "pipe" : "inherit", capture ? "pipe" : "inherit"],
      ...options
    })
    let stdout = ""
    let stderr = ""
    child.stdout?.setEncoding("utf8").on("data", (chunk) => void (stdout += chunk))
    child.stderr?.setEncoding("utf8").on("data", (chunk) => void (stderr += chunk))
    const timer = timeout === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), timeout)
    child.once("error", reject)
    child.once("close", (status, signal) => {
      clearTimeout(timer)
      resolve({ status: status ?? signal, stdout, output: `${stdout}${stderr}` })
    })
  })
const run = async (command, commandArgs, options = {}) => (await spawn(command, commandArgs, options)).status === 0
const capture = (command, commandArgs, options = {}) => spawn(command, commandArgs, { ...options, capture: true })
const must = (ok, what) => {
  if (!ok) throw new Error(what)
}

const readJson = (file) => JSON.parse(Fs.readFileSync(file, "utf8"))
const packages = Fs.readdirSync(Path.join(root, "packages"))
  .map((dir) => ({
    dir: Path.join(root, "packages", dir),
    manifest: readJson(Path.join(root, "packages", dir, "package.json"))
  }))
  .filter(({ manifest }) => manifest.private !== true)
const pin = readJson(Path.join(root, "packages", "core", "package.json")).devDependencies.effect
const [major, minor, patch] = pin.split(".").map(Number)
// One patch away from the pin, as a user who has not upgraded yet (or has upgraded first).
const userEffect = `${major}.${minor}.${patch > 0 ? patch - 1 : patch + 1}`
const platformPin = readJson(Path.join(root, "packages", "core", "package.json")).devDependencies["@effect/platform"]
// The server's storage, which its README tells users to install beside it.
const serverDevDependencies = readJson(Path.join(root, "packages", "server", "package.json")).devDependencies
const sqlPins = {
  "@effect/sql": serverDevDependencies["@effect/sql"],
  "@effect/sql-sqlite-node": serverDevDependencies["@effect/sql-sqlite-node"]
}
const platformNodePin =
  readJson(Path.join(root, "packages", "server", "package.json")).devDependencies["@effect/platform-node"]
const typescript = readJson(Path.join(root, "package.json")).devDependencies.typescript
const typesNode = readJson(Path.join(root, "package.json")).devDependencies["@types/node"]

try {
  // 1. Build and pack.
  if (build) must(await run("pnpm", ["build"], { cwd: root }), "pnpm build failed")
  const packs = Path.join(work, "packs")
  Fs.mkdirSync(packs)
  const tarballs = new Map()
  for (const { dir, manifest } of packages) {
    const before = new Set(Fs.readdirSync(packs))
    must(
      await run("pnpm", ["pack", "--pack-destination", packs], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] }),
      `pnpm pack ${manifest.name}`
    )
    const file = Fs.readdirSync(packs).find((name) => !before.has(name))
    tarballs.set(manifest.name, Path.join(packs, file))
  }
  log(`packed ${[...tarballs.keys()].join(", ")}`)

  if (breakPackage !== undefined) {
    // The layout this check exists to catch: effect as an exact dependency of one package.
    const name = `@pdf-transform/${breakPackage}`
    const tarball = tarballs.get(name)
    must(tarball !== undefined, `--break: no package ${name}`)
    const unpacked = Path.join(work, "broken")
    Fs.mkdirSync(unpacked)
    execFileSync("tar", ["-xzf", tarball, "-C", unpacked])
    const manifestPath = Path.join(unpacked, "package", "package.json")
    const manifest = readJson(manifestPath)
    delete manifest.peerDependencies.effect
    manifest.dependencies = { ...manifest.dependencies, effect: pin }
    Fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
    execFileSync("tar", ["-czf", tarball, "-C", unpacked, "package"])
    log(`--break: ${name} now lists effect ${pin} under dependencies`)
  }

  // 2. publint on every package; attw on the libraries (the CLI ships a command, no types).
  for (const [name, tarball] of tarballs) {
    const publint = await capture("pnpm", ["exec", "publint", "--strict", tarball], { cwd: root })
    if (publint.status !== 0 || !publint.output.includes("All good")) fail(`publint ${name}:\n${publint.output}`)
    if (name === "@pdf-transform/cli") continue
    const manifest = packages.find((p) => p.manifest.name === name)
    const modules = Fs.readdirSync(Path.join(manifest.dir, "src"))
      .filter((file) => file.endsWith(".ts") && file !== "index.ts")
      .map((file) => `./${file.slice(0, -3)}`)
    const attw = await capture("pnpm", [
      "exec",
      "attw",
      tarball,
      "--profile",
      "esm-only",
      "--format",
      "table-flipped",
      "--include-entrypoints",
      ...modules
    ], { cwd: root, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } })
    if (attw.status !== 0) fail(`attw ${name}:\n${attw.output}`)
  }
  log(`publint and attw: ${failures.length === 0 ? "no problems" : `${failures.length} problems`}`)

  // 3. A registry for the @pdf-transform scope, on loopback.
  const registry = await serveRegistry(tarballs)
  const scope = `--@pdf-transform:registry=${registry.url}`
  try {
    // 4. The application: its own effect patch, the libraries from the registry.
    const app = Path.join(work, "app")
    Fs.mkdirSync(app)
    const dependencies = {
      "effect": userEffect,
      "@effect/platform": platformPin,
      "@effect/platform-node": platformNodePin,
      ...sqlPins,
      ...Object.fromEntries(
        [...tarballs.keys()].filter((name) => name !== "@pdf-transform/cli").map((
          name
        ) => [name, readJson(Path.join(packages.find((p) => p.manifest.name === name).dir, "package.json")).version])
      )
    }
    Fs.writeFileSync(
      Path.join(app, "package.json"),
      `${
        JSON.stringify(
          {
            name: "consumer",
            private: true,
            type: "module",
            dependencies,
            devDependencies: { typescript, "@types/node": typesNode }
          },
          null,
          2
        )
      }\n`
    )
    for (const file of ["program.ts", "tsconfig.json"]) {
      Fs.copyFileSync(Path.join(root, "scripts", "consumer", file), Path.join(app, file))
    }
    log(`installing into ${app} with effect ${userEffect} (the repository pins ${pin})`)
    must(
      await run("npm", ["install", scope, "--no-audit", "--no-fund", "--loglevel=error", "--no-package-lock"], {
        cwd: app
      }),
      "npm install of the packed libraries failed"
    )

    const copies = (name) => findCopies(Path.join(app, "node_modules"), name)
    for (const name of ["effect", "@effect/platform", "@pdf-transform/core"]) {
      const found = copies(name)
      if (found.length !== 1) {
        fail(
          `${found.length} copies of ${name}:\n${
            found.map((c) => `  ${c.version} at ${Path.relative(app, c.dir)}`).join("\n")
          }`
        )
      } else log(`one copy of ${name} (${found[0].version})`)
    }

    // The server's OpenTelemetry packages are optional peers: the client, the batch and a server
    // without metrics run with none of them installed.
    const telemetry = ["@opentelemetry/api", "@effect/opentelemetry"].filter((name) => copies(name).length > 0)
    if (telemetry.length > 0) fail(`OpenTelemetry came with the libraries: ${telemetry.join(", ")}`)
    else log("no OpenTelemetry package installed (the program below runs without it)")

    const tsc = await capture("npx", ["--no-install", "tsc", "-p", "."], { cwd: app })
    if (tsc.status !== 0) fail(`the program does not type-check:\n${tsc.output.split("\n").slice(0, 30).join("\n")}`)
    else {
      log("the program type-checks (strict, NodeNext, skipLibCheck false)")
      const program = await capture("node", ["build/program.js"], { cwd: app, timeout: 120_000 })
      if (program.status !== 0) fail(`the program failed (exit ${program.status}):\n${program.output}`)
      else process.stderr.write(program.output)
    }

    // 5. The CLI as a user installs it.
    const prefix = Path.join(work, "global")
    must(
      await run("npm", [
        "install",
        "-g",
        "--prefix",
        prefix,
        scope,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `@pdf-transform/cli@${readJson(Path.join(root, "packages", "cli", "package.json")).version}`
      ], { cwd: work }),
      "npm install -g of the CLI failed"
    )
    const page = Path.join(prefix, "lib", "node_modules", "@pdf-transform", "cli", "dist", "web", "index.html")
    if (!Fs.existsSync(page)) fail(`the installed CLI lacks the server's web page (${Path.relative(work, page)})`)
    const help = await capture(Path.join(prefix, "bin", "pdf-transform"), ["--help"], { cwd: work, timeout: 60_000 })
    if (help.status !== 0 || !help.stdout.includes("convert")) {
      fail(`pdf-transform --help (exit ${help.status}):\n${help.output}`)
    } else if (help.output.includes("\u001b[")) fail("pdf-transform --help printed ANSI escapes into a pipe")
    else {log(
        `pdf-transform --help from ${Path.relative(work, prefix)}/bin: ${
          help.stdout.split("\n").length
        } lines, no escapes`
      )}
    // The main job with the installed command: the embedded server and the local converter, loaded
    // from the installed converter package (its worker threads and PDFium included).
    const converted = Path.join(work, "converted")
    const paper = Path.join(root, "examples", "pdfs", "tracemonkey.pdf")
    const convert = await capture(
      Path.join(prefix, "bin", "pdf-transform"),
      ["convert", paper, "--to", "markdown", "--out", converted],
      { cwd: work, timeout: 180_000 }
    )
    const markdown = Path.join(converted, "tracemonkey.md")
    if (convert.status !== 0 || !Fs.existsSync(markdown) || !Fs.readFileSync(markdown, "utf8").includes("Trace")) {
      fail(`pdf-transform convert (exit ${convert.status}):\n${convert.output}`)
    } else log(`pdf-transform convert from the global install wrote ${Fs.statSync(markdown).size} bytes of Markdown`)
  } finally {
    await registry.close()
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error))
}

if (failures.length > 0) {
  log(`${failures.length} problem(s); the work folder is kept: ${work}`)
  process.exit(1)
}
if (!args.includes("--keep")) Fs.rmSync(work, { recursive: true, force: true })
log("passed")

/** Every installed copy of a package under a node_modules tree, nested ones included. */
function findCopies(nodeModules, name) {
  const found = []
  const visit = (dir) => {
    if (!Fs.existsSync(dir)) return
    const candidate = Path.join(dir, ...name.split("/"))
    const manifest = Path.join(candidate, "package.json")
    if (Fs.existsSync(manifest)) found.push({ dir: candidate, version: readJson(manifest).version })
    for (const entry of Fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === ".bin") continue
      if (entry.name.startsWith("@")) {
        for (const scoped of Fs.readdirSync(Path.join(dir, entry.name), { withFileTypes: true })) {
          if (scoped.isDirectory()) visit(Path.join(dir, entry.name, scoped.name, "node_modules"))
        }
      } else visit(Path.join(dir, entry.name, "node_modules"))
    }
  }
  visit(nodeModules)
  return found
}

/** Packuments and tarballs of the packed packages, the way npm's registry serves them. */
function serveRegistry(tarballs) {
  const entries = new Map()
  for (const [name, file] of tarballs) {
    const bytes = Fs.readFileSync(file)
    const manifest = JSON.parse(execFileSync("tar", ["-xzOf", file, "package/package.json"], { encoding: "utf8" }))
    entries.set(name, { bytes, manifest, basename: Path.basename(file) })
  }
  const server = Http.createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://registry").pathname).slice(1)
    const tarball = [...entries.values()].find((entry) => path.endsWith(`/-/${entry.basename}`))
    if (tarball !== undefined) {
      response.writeHead(200, { "content-type": "application/octet-stream", "content-length": tarball.bytes.length })
      return response.end(tarball.bytes)
    }
    const entry = entries.get(path)
    if (entry === undefined) {
      response.writeHead(404, { "content-type": "application/json" })
      return response.end(JSON.stringify({ error: "not found" }))
    }
    const { address, port } = server.address()
    const version = entry.manifest.version
    const packument = {
      _id: path,
      name: path,
      "dist-tags": { latest: version },
      versions: {
        [version]: {
          ...entry.manifest,
          _id: `${path}@${version}`,
          dist: {
            tarball: `http://${address}:${port}/${path}/-/${entry.basename}`,
            shasum: Crypto.createHash("sha1").update(entry.bytes).digest("hex"),
            integrity: `sha512-${Crypto.createHash("sha512").update(entry.bytes).digest("base64")}`
          }
        }
      }
    }
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify(packument))
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      resolve({
        url: `http://127.0.0.1:${port}/`,
        close: () => new Promise((done) => server.close(() => done()))
      })
    })
  })
}
