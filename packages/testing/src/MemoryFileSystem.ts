/** Files in memory behind `@effect/platform`'s `FileSystem` and `Path`, for tests under `TestClock`.
 * @since 0.2.0 */
import { SystemError } from "@effect/platform/Error"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/** A file system in memory with what batches, journals and uploaders use, its files, and faults to set.
 * @since 0.2.0
 * @category models */
export interface MemoryFileSystem {
  readonly fs: FileSystem.FileSystem
  /** Every file, by absolute path. */
  readonly files: Map<string, Uint8Array>
  /** Sizes `stat` reports instead of the real ones: a file that changed since it was looked at. */
  readonly statSizes: Map<string, number>
  /** Path prefixes whose writes fail, like a full disk (opening still succeeds). */
  readonly failingWrites: Set<string>
  /** `writeAll` calls so far, by path. */
  readonly writes: Map<string, number>
  /** Paths read whole (`readFile`), in order. */
  readonly wholeReads: Array<string>
  /** Every ranged `stream` (the bytes asked for) and every `read` of an open file (the bytes read). */
  readonly reads: Array<{ readonly path: string; readonly offset: number; readonly bytes: number }>
  /** What every file's `sync` waits for (nothing by default): a slow disk's fsync. */
  readonly syncing: { wait: Effect.Effect<void> }
  readonly text: (path: string) => string | undefined
  readonly layer: Layer.Layer<FileSystem.FileSystem | Path.Path>
}

const error = (method: string, path: string, reason: SystemError["reason"] = "NotFound") =>
  new SystemError({ reason, module: "FileSystem", method, pathOrDescriptor: path })

const parent = (path: string): string => {
  const i = path.lastIndexOf("/")
  return i <= 0 ? "/" : path.slice(0, i)
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

const fileInfo = (size: number): FileSystem.File.Info => ({
  type: "File",
  mtime: Option.none(),
  atime: Option.none(),
  birthtime: Option.none(),
  dev: 0,
  ino: Option.none(),
  mode: 0o644,
  nlink: Option.none(),
  uid: Option.none(),
  gid: Option.none(),
  rdev: Option.none(),
  size: FileSystem.Size(size),
  blksize: Option.none(),
  blocks: Option.none()
})

/** An empty file system with the folder `/`; put files in `files`.
 * @since 0.2.0
 * @category constructors */
export const make = (): MemoryFileSystem => {
  const files = new Map<string, Uint8Array>()
  const dirs = new Set<string>(["/"])
  const statSizes = new Map<string, number>()
  const failingWrites = new Set<string>()
  const writes = new Map<string, number>()
  const wholeReads: Array<string> = []
  const reads: MemoryFileSystem["reads"] = []
  const syncing = { wait: Effect.void }
  let descriptors = 0

  const writable = (path: string) =>
    [...failingWrites].some((prefix) => path.startsWith(prefix)) ?
      Effect.fail(error("write", path, "WriteZero")) :
      Effect.void

  const file = (path: string, append: boolean): FileSystem.File => {
    if (!append) files.set(path, new Uint8Array(0))
    let position = 0
    const writeAll = (bytes: Uint8Array) =>
      Effect.zipRight(
        writable(path),
        Effect.sync(() => {
          writes.set(path, (writes.get(path) ?? 0) + 1)
          files.set(path, concat(files.get(path) ?? new Uint8Array(0), bytes))
        })
      )
    return {
      [FileSystem.FileTypeId]: FileSystem.FileTypeId,
      fd: FileSystem.FileDescriptor(++descriptors),
      stat: Effect.die("stat: not implemented"),
      seek: (offset) => Effect.sync(() => void (position = Number(offset))),
      sync: Effect.suspend(() => syncing.wait),
      read: (buffer) =>
        Effect.sync(() => {
          const chunk = (files.get(path) ?? new Uint8Array(0)).subarray(position, position + buffer.byteLength)
          buffer.set(chunk)
          reads.push({ path, offset: position, bytes: chunk.byteLength })
          position += chunk.byteLength
          return FileSystem.Size(chunk.byteLength)
        }),
      readAlloc: () => Effect.succeed(Option.none()),
      truncate: () => Effect.die("truncate: not implemented"),
      write: (bytes) => Effect.as(writeAll(bytes), FileSystem.Size(bytes.length)),
      writeAll
    }
  }

  const fs = FileSystem.makeNoop({
    exists: (path) => Effect.sync(() => files.has(path) || dirs.has(path)),
    makeDirectory: (path) =>
      Effect.sync(() => {
        for (let p = path; p !== "/"; p = parent(p)) dirs.add(p)
      }),
    readDirectory: (path) =>
      dirs.has(path) ?
        Effect.sync(() =>
          [...files.keys(), ...dirs].filter((p) => p !== path && parent(p) === path).map((p) =>
            p.slice(path.length + 1)
          )
        ) :
        Effect.fail(error("readDirectory", path)),
    readFile: (path) => {
      wholeReads.push(path)
      const bytes = files.get(path)
      return bytes === undefined ? Effect.fail(error("readFile", path)) : Effect.succeed(bytes)
    },
    readFileString: (path) => {
      const bytes = files.get(path)
      return bytes === undefined ?
        Effect.fail(error("readFileString", path)) :
        Effect.succeed(new TextDecoder().decode(bytes))
    },
    stat: (path) => {
      const bytes = files.get(path)
      if (bytes === undefined) return Effect.fail(error("stat", path))
      return Effect.succeed(fileInfo(statSizes.get(path) ?? bytes.byteLength))
    },
    stream: (path, options) => {
      const bytes = files.get(path)
      if (bytes === undefined) return Stream.fail(error("stream", path))
      const size = Number(options?.chunkSize ?? 65536)
      const start = Number(options?.offset ?? 0)
      const end = Math.min(
        bytes.length,
        options?.bytesToRead === undefined ? Infinity : start + Number(options.bytesToRead)
      )
      reads.push({ path, offset: start, bytes: Math.max(0, end - start) })
      const chunks: Array<Uint8Array> = []
      for (let i = start; i < end; i += size) chunks.push(bytes.subarray(i, Math.min(i + size, end)))
      return Stream.fromIterable(chunks)
    },
    remove: (path) => Effect.sync(() => void (files.delete(path) || dirs.delete(path))),
    rename: (from, to) => {
      const bytes = files.get(from)
      if (bytes === undefined) return Effect.fail(error("rename", from))
      return Effect.zipRight(
        writable(to),
        Effect.sync(() => {
          files.delete(from)
          files.set(to, bytes)
        })
      )
    },
    open: (path, options) =>
      Effect.suspend(() => {
        const flag = options?.flag ?? "r"
        if (flag === "r") {
          return files.has(path) || dirs.has(path) ?
            Effect.succeed(file(path, true)) :
            Effect.fail(error("open", path))
        }
        if (!dirs.has(parent(path))) return Effect.fail(error("open", path))
        if (flag === "wx" && files.has(path)) return Effect.fail(error("open", path, "AlreadyExists"))
        return Effect.sync(() => {
          if (!files.has(path)) files.set(path, new Uint8Array(0))
          return file(path, flag.startsWith("a"))
        })
      })
  })

  return {
    fs,
    files,
    statSizes,
    failingWrites,
    writes,
    wholeReads,
    reads,
    syncing,
    text: (path) => {
      const bytes = files.get(path)
      return bytes === undefined ? undefined : new TextDecoder().decode(bytes)
    },
    layer: Layer.merge(Layer.succeed(FileSystem.FileSystem, fs), Path.layer)
  }
}
