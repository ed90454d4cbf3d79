/**
 * The command line's sources as batch jobs: http(s) URLs as they are, files as given, and folders
 * searched (with their subfolders, hidden ones left out) for `*.pdf`, in name order.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import type * as Contract from "@pdf-transform/core/Contract"
import * as Job from "@pdf-transform/stream/Job"
import * as Effect from "effect/Effect"
import { UsageError } from "../CliError.js"

export interface Inputs {
  readonly jobs: ReadonlyArray<Job.Job>
  /** How many of them are local files (they need an upload). */
  readonly localFiles: number
}

const isHttp = (text: string) => /^https?:\/\//i.test(text)
const hasScheme = (text: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
const isPdfName = (name: string) => name.toLowerCase().endsWith(".pdf")
const isHidden = (relative: string, path: Path.Path) =>
  relative.split(path.sep).some((segment) => segment.startsWith("."))

const folderPdfs = (folder: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const entries = yield* fs.readDirectory(folder, { recursive: true }).pipe(
      Effect.mapError((error) => new UsageError({ message: `Cannot list the folder ${folder}: ${error.message}` }))
    )
    const candidates = entries.filter((entry) => isPdfName(entry) && !isHidden(entry, path)).sort()
    const files: Array<string> = []
    for (const entry of candidates) {
      const full = path.join(folder, entry)
      const info = yield* Effect.option(fs.stat(full))
      if (info._tag === "Some" && info.value.type === "File") files.push(full)
    }
    return files
  })

const sourceOf = (argument: string) =>
  Effect.gen(function*() {
    if (isHttp(argument)) {
      if (!URL.canParse(argument)) return yield* new UsageError({ message: `${argument} is not a valid URL` })
      return { urls: [argument], files: [] as ReadonlyArray<string> }
    }
    if (hasScheme(argument) && !argument.toLowerCase().startsWith("file://")) {
      return yield* new UsageError({ message: `${argument}: only http(s) URLs and local paths can be converted` })
    }
    const fs = yield* FileSystem.FileSystem
    const local = argument.toLowerCase().startsWith("file://") ? new URL(argument).pathname : argument
    const info = yield* fs.stat(local).pipe(
      Effect.mapError(() => new UsageError({ message: `No such file or folder: ${argument}` }))
    )
    if (info.type === "Directory") {
      const files = yield* folderPdfs(local)
      if (files.length === 0) return yield* new UsageError({ message: `No PDF (*.pdf) in the folder ${argument}` })
      return { urls: [] as ReadonlyArray<string>, files }
    }
    return { urls: [] as ReadonlyArray<string>, files: [local] }
  })

/** The jobs of the command line, in its order; a missing path or an empty folder is a usage error. */
export const collect = (
  args: ReadonlyArray<string>,
  format: Contract.Format
): Effect.Effect<Inputs, UsageError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const jobs: Array<Job.Job> = []
    let localFiles = 0
    for (const argument of args) {
      const { files, urls } = yield* sourceOf(argument)
      for (const url of urls) jobs.push(Job.url(url, format))
      for (const file of files) jobs.push(Job.file(file, format))
      localFiles += files.length
    }
    return { jobs, localFiles }
  })
