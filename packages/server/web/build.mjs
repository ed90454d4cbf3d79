// Builds the web page into web/dist: the TypeScript of web/src bundled with its libraries (no CDN,
// nothing fetched when the page runs), beside index.html and the style sheet. Run by this package's
// `prepare` script at install; the server reads web/dist when it starts. Each file is written to a
// temporary name and renamed, so a server starting meanwhile reads whole files.
import * as esbuild from "esbuild"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const web = Path.dirname(fileURLToPath(import.meta.url))
const outdir = Path.join(web, "dist")

const result = await esbuild.build({
  absWorkingDir: web,
  entryPoints: { app: "src/main.ts" },
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  // The libraries' licence comments, kept in a file of their own.
  legalComments: "linked",
  write: false,
  outdir,
  logLevel: "warning"
})

const files = [
  ...result.outputFiles.map((file) => ({ name: Path.basename(file.path), contents: file.contents })),
  ...["index.html", "style.css"].map((name) => ({ name, contents: Fs.readFileSync(Path.join(web, name)) }))
]
Fs.mkdirSync(outdir, { recursive: true })
for (const { contents, name } of files) {
  const temporary = Path.join(outdir, `.${name}.${process.pid}`)
  Fs.writeFileSync(temporary, contents)
  Fs.renameSync(temporary, Path.join(outdir, name))
}
