/** File-system steps shared by the journal and the output writer. */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"

/** fsync of a directory: makes the names created or renamed in it durable (Linux, macOS). */
export const syncDirectory = (fs: FileSystem.FileSystem, directory: string) =>
  Effect.scoped(Effect.flatMap(fs.open(directory, { flag: "r" }), (dir) => dir.sync))
