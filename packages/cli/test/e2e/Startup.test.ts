/**
 * What the command loads before it has parsed its arguments: help, version and usage errors load
 * the command line's definitions and @effect/cli, never the server, the batch, a SQL client or the
 * converter. The bundle is run as a person runs it, with a preloaded hook that records every module
 * the process loads; the files of dist/ are mapped back to their sources through esbuild's
 * metafile (written by build.mjs).
 *
 * The rule it keeps: a module that `src/Cli.ts` imports (the flags, their defaults) is loaded by
 * every command line, so it may import only modules free of a runtime (the `ServerDefaults` and
 * `BatchDefaults` kind); a command's work is imported where the command runs.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { repository, run, stopAll, temporaryFolder } from "../support/process.js"

const cliRoot = fileURLToPath(new URL("../../", import.meta.url))
const recorder = pathToFileURL(fileURLToPath(new URL("../support/recordLoads.mjs", import.meta.url))).href

interface Metafile {
  readonly outputs: Record<string, { readonly inputs: Record<string, unknown> }>
}

/** Every source a file of dist/ was made from, by the file's absolute path. */
const sourcesOf = (): Map<string, ReadonlyArray<string>> => {
  const metafile = JSON.parse(Fs.readFileSync(Path.join(cliRoot, "build", "metafile.json"), "utf8")) as Metafile
  return new Map(
    Object.entries(metafile.outputs).map((
      [output, { inputs }]
    ) => [Path.resolve(cliRoot, output), Object.keys(inputs).map((input) => Path.resolve(cliRoot, input))])
  )
}

/** The sources a command line loads: the bundle's files mapped to their sources, and whatever loads from outside it. */
const loadedBy = async (args: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
  const record = Path.join(temporaryFolder("pdf-transform-startup-"), "loaded.txt")
  // The bundle itself: bin/ answers these lines from its cache without it (HelpCache.test.ts).
  const result = await run(args, {
    env: { NODE_OPTIONS: `--import=${recorder}`, LOADED_MODULES: record },
    script: Path.join(cliRoot, "dist", "bin.js")
  })
  assert.strictEqual(result.code, 0, result.stderr)
  const sources = sourcesOf()
  const files = Fs.readFileSync(record, "utf8").split("\n").filter((url) => url.startsWith("file:"))
    .map((url) => fileURLToPath(url))
  assert.include(files, Path.join(cliRoot, "dist", "bin.js"), "the hook recorded the bundle's loading")
  return files.flatMap((file) => sources.get(file) ?? [file])
}

const packages = Path.join(repository, "packages")

/** What of the workspace a command line may load: the executable, and the command's own modules except the commands' work. */
const allowed = (source: string): boolean => {
  const relative = Path.relative(packages, source).split(Path.sep).join("/")
  return relative.startsWith("cli/bin/") || relative === "cli/package.json" ||
    (relative.startsWith("cli/src/") && !relative.startsWith("cli/src/internal/commands/")) ||
    [
      "core/src/Contract.ts",
      "server/src/ServerDefaults.ts",
      // The server's settings, which serve's flags are made from: Schemas of effect only.
      "server/src/ServerConfig.ts",
      "server/src/internal/settingTree.ts",
      "server/src/internal/settingValues.ts",
      "stream/src/BatchDefaults.ts"
    ].includes(relative)
}

/** Packages that belong to a command's work: SQL clients, HTTP server and client, telemetry, the PDF engine, OCR. */
const runtimePackage =
  /node_modules\/(@effect\/sql[^/]*|pg[^/]*|better-sqlite3|undici|ws|find-my-way-ts|multipasta|@effect\/opentelemetry|@opentelemetry\/[^/]+|@embedpdf\/[^/]+|tesseract\.js[^/]*|fflate)\//

const violations = (sources: ReadonlyArray<string>): ReadonlyArray<string> =>
  sources.filter((source) =>
    source.includes(`${Path.sep}node_modules${Path.sep}`)
      ? runtimePackage.test(source.split(Path.sep).join("/"))
      : source.startsWith(packages + Path.sep) && !allowed(source)
  ).map((source) => Path.relative(repository, source))

describe("startup", () => {
  afterAll(stopAll)

  it("help and --version load no module of serve, the batch, the SQL clients or the converter", async () => {
    const lines = [["--help"], ["convert", "--help"], ["serve", "--help"], ["status", "--help"], ["--version"]]
    const loaded = await Promise.all(lines.map(loadedBy))
    lines.forEach((args, i) => {
      assert.include(loaded[i], Path.join(cliRoot, "src", "Cli.ts"), `pdf-transform ${args.join(" ")}`)
      assert.deepStrictEqual(violations(loaded[i]!), [], `pdf-transform ${args.join(" ")} loads the command's work`)
    })
  })
})
