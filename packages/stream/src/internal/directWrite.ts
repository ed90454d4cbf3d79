/** A synchronous `write(2)` on a descriptor a `FileSystem` opened, when it is a file on this machine's disk. */
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
