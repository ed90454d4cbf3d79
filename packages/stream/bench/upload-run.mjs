// The upload memory benchmark: the reference server in its own process on 127.0.0.1, a 200 MiB
// PDF-headed file on disk, and each upload in a process of its own (bundled, run by plain node):
// core's ChunkedUploader given the file's path (streamed in parts), then, as the reference, given
// the file's bytes read whole. Prints each one's peak RSS above its baseline and the ratio.
//
//   pnpm --filter @pdf-transform/stream bench:upload
//
// BENCH_UPLOAD_MB (default 200) changes the file's size.
import { spawn } from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { bundle, out, startServer } from "./processes.mjs"

const key = Crypto.randomBytes(16).toString("hex")
const MiB = 1024 * 1024
const sizeMb = Number(process.env.BENCH_UPLOAD_MB ?? 200)
const targetMb = 64

const upload = (mode, baseUrl, file) =>
  new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--expose-gc", Path.join(out, "upload.mjs"), mode, baseUrl, key, file], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let buffer = ""
    proc.stdout.on("data", (chunk) => void (buffer += chunk))
    proc.on("error", reject)
    proc.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(buffer.trim().split("\n").pop()))
        : reject(new Error(`${mode} upload exited ${code}`)))
  })

/** A PDF header, then pseudo-random bytes written 1 MiB at a time. */
const writeFile = (path) => {
  const fd = Fs.openSync(path, "w")
  Fs.writeSync(fd, "%PDF-1.7\n")
  const block = Crypto.randomBytes(MiB)
  for (let i = 0; i < sizeMb; i++) Fs.writeSync(fd, block, 0, i === sizeMb - 1 ? MiB - 9 : MiB)
  Fs.closeSync(fd)
}

const mb = (bytes) => (bytes / MiB).toFixed(1)

await Promise.all([bundle("server"), bundle("upload")])
const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "bench-upload-"))
const file = Path.join(dir, "big.pdf")
writeFile(file)
const { baseUrl, proc } = await startServer({ BENCH_KEY: key, BENCH_UPLOAD_MAX_BYTES: String((sizeMb + 1) * MiB) })
try {
  console.log(
    `${Os.cpus().length} cores, Node ${process.version}; a ${sizeMb} MiB file uploaded with core's ChunkedUploader (parts of the server's 5 MiB, 3 at a time) to the reference server in its own process on 127.0.0.1`
  )
  const results = {}
  for (const mode of ["path", "bytes"]) {
    const r = await upload(mode, baseUrl, file)
    if (!r.url.startsWith("cache://") || r.bytes !== Fs.statSync(file).size) {
      throw new Error(`${mode}: unexpected result ${JSON.stringify(r)}`)
    }
    results[mode] = r
    const label = mode === "path" ? "by path (streamed from disk)" : "as bytes read whole (reference)"
    console.log(
      `${label}: baseline RSS ${mb(r.baseline)} MiB, peak ${mb(r.peak)} MiB, +${
        mb(r.peak - r.baseline)
      } MiB during the upload; ${(r.ms / 1000).toFixed(2)} s (${(r.bytes / MiB / (r.ms / 1000)).toFixed(0)} MiB/s)`
    )
  }
  const growth = results.path.peak - results.path.baseline
  const reference = results.bytes.peak - results.bytes.baseline
  console.log(`ratio of the growths (path / bytes): ${(growth / reference).toFixed(3)}`)
  console.log(
    `target: peak RSS < ${targetMb} MB above the baseline during a ${sizeMb} MiB upload: ${
      growth < targetMb * 1e6 ? "met" : "NOT met"
    } (+${(growth / 1e6).toFixed(1)} MB)`
  )
} finally {
  proc.removeAllListeners("exit")
  proc.kill("SIGTERM")
  Fs.rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
