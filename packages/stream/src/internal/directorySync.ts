/**
 * fsyncs of a directory shared by the writers that ask at about the same moment (group commit):
 * each caller waits for a sync that began after it asked, so the names it created or renamed
 * before asking are durable when it returns, as with a sync of its own. While one sync runs, the
 * callers that arrive meanwhile share the next one: outputs finishing together cost one open,
 * fsync and close of the folder instead of one each.
 */
import type { PlatformError } from "@effect/platform/Error"
import type * as FileSystem from "@effect/platform/FileSystem"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FiberId from "effect/FiberId"
import { syncDirectory } from "./files.js"

/** Makes the directory's entries durable; answers once a sync begun after the call has ended. */
export type DirectorySync = (directory: string) => Effect.Effect<void, PlatformError>

interface Group {
  /** The sync in progress, if any. */
  running: Deferred.Deferred<void, PlatformError> | undefined
  /** The sync that begins when `running` ends; callers arriving now join it. */
  pending: Deferred.Deferred<void, PlatformError> | undefined
}

export const make = (fs: FileSystem.FileSystem): DirectorySync => {
  const groups = new Map<string, Group>()

  return (directory) =>
    Effect.suspend(() => {
      let group = groups.get(directory)
      if (group === undefined) {
        group = { running: undefined, pending: undefined }
        groups.set(directory, group)
      }
      // A sync not begun yet begins after this call: joining it is as good as starting one.
      if (group.pending !== undefined) return Deferred.await(group.pending)
      const own = group
      const mine = Deferred.unsafeMake<void, PlatformError>(FiberId.none)
      own.pending = mine
      const previous = own.running
      const perform = Effect.suspend(() => {
        own.pending = undefined
        own.running = mine
        return Effect.exit(syncDirectory(fs, directory))
      }).pipe(
        Effect.flatMap((exit) => {
          if (own.running === mine) own.running = undefined
          return Effect.zipRight(Deferred.done(mine, exit), exit)
        })
      )
      // Uninterruptible: the callers that joined this sync wait for it whatever happens to this one.
      return Effect.uninterruptible(
        previous === undefined ? perform : Effect.zipRight(Effect.exit(Deferred.await(previous)), perform)
      )
    })
}
