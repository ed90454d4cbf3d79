/** Output names from the source: safe on any file system, unique in the output folder, never outside it. */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import type * as Contract from "@pdf-transform/core/Contract"
import * as Media from "@pdf-transform/core/Media"
import * as Effect from "effect/Effect"
import { OutputFailed } from "../BatchError.js"
import type * as Job from "../Job.js"

/** Longest name kept, in UTF-8 bytes: file systems allow 255, and a suffix and an extension follow. */
const maxNameBytes = 180

const encoder = new TextEncoder()

const withoutExtension = (name: string, extension: RegExp): string => name.replace(extension, "")

const lastSegment = (url: URL): string => {
  const segments = url.pathname.split("/").filter((segment) => segment !== "")
  const last = segments[segments.length - 1]
  if (last === undefined) return url.hostname
  try {
    return decodeURIComponent(last)
  } catch {
    // Not valid percent-encoding: the raw segment is still a usable name once sanitised.
    return last
  }
}

/** The name a job's output gets before sanitising and de-duplication. */
export const sourceName = (job: Job.Job, paths: Path.Path, fallback: string): string => {
  if (job.outputName !== undefined) {
    return withoutExtension(job.outputName, job.format === "markdown" ? /\.(md|markdown)$/i : /\.epub$/i)
  }
  const source = job.source
  if (typeof source === "string") return withoutExtension(paths.basename(source), /\.pdf$/i)
  if (source instanceof URL) return withoutExtension(lastSegment(source), /\.pdf$/i)
  return fallback
}

/** A name no file system refuses and no path can escape through: no separators, no leading dots. */
export const sanitize = (name: string): string => {
  const cleaned = name
    .normalize("NFC")
    .replace(/[/\\:*?"<>|\p{Cc}]/gu, "_")
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/^\.+/u, "")
    .replace(/[. ]+$/u, "")
  let kept = ""
  let bytes = 0
  for (const char of cleaned) {
    bytes += encoder.encode(char).length
    if (bytes > maxNameBytes) break
    kept += char
  }
  return kept === "" ? "document" : kept
}

/** Hands out output paths inside one folder, never the same one twice, never an existing file. */
export interface Names {
  /** Claims a path for `name` + the format's extension: `name.md`, else `name-2.md`, `name-3.md`... */
  readonly claim: (name: string, format: Contract.Format) => Effect.Effect<string, OutputFailed>
  /** Marks a path as taken (one the journal already gave a job); false when it is outside the folder. */
  readonly reserve: (path: string) => boolean
  /** Forgets a path whose output is on disk (a later claim finds the file), so names held stay few. */
  readonly release: (path: string) => void
}

export const make = (directory: string): Effect.Effect<Names, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const paths = yield* Path.Path
    const root = paths.resolve(directory)
    // Compared without case: two names that differ only in case are one file on macOS and Windows.
    const taken = new Set<string>()
    const inside = (path: string): boolean => {
      const relative = paths.relative(root, paths.resolve(path))
      return relative !== "" && !relative.startsWith("..") && !paths.isAbsolute(relative) &&
        !relative.includes(paths.sep)
    }

    const claim = (name: string, format: Contract.Format) =>
      Effect.gen(function*() {
        const base = sanitize(name)
        for (let n = 1;; n++) {
          const path = paths.join(root, `${n === 1 ? base : `${base}-${n}`}${Media.extension(format)}`)
          if (!inside(path)) return yield* new OutputFailed({ path, reason: "outside the output folder" })
          if (taken.has(path.toLowerCase())) continue
          // Taken before looking at the disk, so a claim running alongside cannot pick it too.
          taken.add(path.toLowerCase())
          const exists = yield* fs.exists(path).pipe(
            Effect.mapError((cause) => new OutputFailed({ path, reason: cause.message }))
          )
          if (!exists) return path
        }
      })

    const reserve = (path: string): boolean => {
      if (!inside(path)) return false
      taken.add(paths.resolve(path).toLowerCase())
      return true
    }

    const release = (path: string): void => void taken.delete(paths.resolve(path).toLowerCase())

    return { claim, reserve, release }
  })
