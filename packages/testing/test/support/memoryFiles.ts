/**
 * Files in memory behind @effect/platform's `FileSystem` (`stat`, ranged `stream`, `open` with
 * `seek` and `read`: what the uploaders use), with every read recorded: no real I/O to race the
 * TestClock.
 */
import { SystemError } from "@effect/platform/Error"
import * as FileSystem from "@effect/platform/FileSystem"
import { Effect, Layer, Option, Stream } from "effect"

export interface MemoryFiles {
  readonly files: Map<string, Uint8Array>
  /** Sizes `stat` reports instead of the real ones: a file that changed since it was looked at. */
  readonly statSizes: Map<string, number>
  /** Every `stream` call (the bytes it was asked for) and every `read` of an open file (the bytes read). */
  readonly reads: Array<{ readonly path: string; readonly offset: number; readonly bytes: number }>
  readonly layer: Layer.Layer<FileSystem.FileSystem>
}

const notFound = (method: string, path: string) =>
  new SystemError({ reason: "NotFound", module: "FileSystem", method, pathOrDescriptor: path })

export const make = (): MemoryFiles => {
  const files = new Map<string, Uint8Array>()
  const statSizes = new Map<string, number>()
  const reads: MemoryFiles["reads"] = []
  const fs = FileSystem.makeNoop({
    stat: (path) => {
      const bytes = files.get(path)
      if (bytes === undefined) return Effect.fail(notFound("stat", path))
      return Effect.succeed({
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
        size: FileSystem.Size(statSizes.get(path) ?? bytes.byteLength),
        blksize: Option.none(),
        blocks: Option.none()
      })
    },
    open: (path) =>
      Effect.suspend(() => {
        const bytes = files.get(path)
        if (bytes === undefined) return Effect.fail(notFound("open", path))
        let position = 0
        return Effect.succeed<FileSystem.File>({
          [FileSystem.FileTypeId]: FileSystem.FileTypeId,
          fd: FileSystem.FileDescriptor(3),
          stat: Effect.die("stat: not implemented"),
          seek: (offset) => Effect.sync(() => void (position = Number(offset))),
          sync: Effect.void,
          read: (buffer) =>
            Effect.sync(() => {
              const chunk = bytes.subarray(position, position + buffer.byteLength)
              buffer.set(chunk)
              reads.push({ path, offset: position, bytes: chunk.byteLength })
              position += chunk.byteLength
              return FileSystem.Size(chunk.byteLength)
            }),
          readAlloc: () => Effect.die("readAlloc: not implemented"),
          truncate: () => Effect.die("truncate: not implemented"),
          write: () => Effect.die("write: not implemented"),
          writeAll: () => Effect.die("writeAll: not implemented")
        })
      }),
    stream: (path, options) => {
      const bytes = files.get(path)
      if (bytes === undefined) return Stream.fail(notFound("stream", path))
      const offset = Number(options?.offset ?? 0)
      const end = options?.bytesToRead === undefined ? bytes.byteLength : offset + Number(options.bytesToRead)
      const chunkSize = Number(options?.chunkSize ?? 65536)
      reads.push({ path, offset, bytes: Math.min(end, bytes.byteLength) - offset })
      const chunks: Array<Uint8Array> = []
      for (let i = offset; i < Math.min(end, bytes.byteLength); i += chunkSize) {
        chunks.push(bytes.subarray(i, Math.min(i + chunkSize, end)))
      }
      return Stream.fromIterable(chunks)
    }
  })
  return { files, statSizes, reads, layer: Layer.succeed(FileSystem.FileSystem, fs) }
}

/** A PDF-headed file whose every 4 KiB block differs, so a part stored at the wrong place shows. */
export const pdfOf = (size: number): Uint8Array => {
  const bytes = new Uint8Array(size)
  bytes.set(new TextEncoder().encode("%PDF-1.7\n").subarray(0, size))
  for (let offset = 4096; offset < size; offset += 4096) {
    bytes.set(new TextEncoder().encode(`block ${offset}`).subarray(0, size - offset), offset)
  }
  return bytes
}
