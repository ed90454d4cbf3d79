/**
 * A synchronous `write(2)` on a descriptor a `FileSystem` opened, when that descriptor is the file
 * itself on this machine's disk. The journal writes its lines with it: a line is in the page cache
 * (where a killed process cannot lose it) the moment it is appended, with no round trip through
 * libuv's thread pool (100-200 µs of CPU a write on the VMs measured, and a wait behind the outputs'
 * fsyncs in the same four threads). A write of a short line to the page cache takes microseconds;
 * the fsyncs, which may take long, stay asynchronous.
 *
 * The descriptor is used only when it is the file at `path` (same device and inode): an in-memory
 * or custom `FileSystem` hands out descriptors that are not, and keeps its own writes.
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as NodeFs from "node:fs"

/** Writes all of `bytes` at the file's end (the descriptor was opened to append), or throws. */
export type DirectWrite = (bytes: Uint8Array) => void

/** Whether `descriptor` is open on the file at `path`. */
const sameFile = (descriptor: number, path: string): boolean => {
  const named = NodeFs.statSync(path, { throwIfNoEntry: false })
  if (named === undefined) return false
  try {
    const opened = NodeFs.fstatSync(descriptor)
    return opened.isFile() && opened.dev === named.dev && opened.ino === named.ino
  } catch (error) {
    // EBADF: the number is no descriptor of this process (another FileSystem's), so not the file.
    if (error instanceof Error && "code" in error) return false
    throw error
  }
}

/** The direct write for `file` opened at `path`, or `undefined` where the FileSystem's own writes must be used. */
export const forFile = (file: FileSystem.File, path: string): DirectWrite | undefined => {
  const descriptor = Number(file.fd)
  if (!sameFile(descriptor, path)) return undefined
  return (bytes) => {
    for (let offset = 0; offset < bytes.length;) offset += NodeFs.writeSync(descriptor, bytes, offset)
  }
}
