/** A directory's fsync shared by writers asking together (group commit): each waits for a sync begun after it asked. */
import type { PlatformError } from "@effect/platform/Error"
import type * as FileSystem from "@effect/platform/FileSystem"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FiberId from "effect/FiberId"
import * as Ref from "effect/Ref"
import { syncDirectory } from "./files.js"

/** Makes the directory's entries durable; answers once a sync begun after the call has ended. */
export type DirectorySync = (directory: string) => Effect.Effect<void, PlatformError>

type Sync = Deferred.Deferred<void, PlatformError>

interface Group {
  /** The sync in progress, if any. */
  readonly running: Sync | undefined
  /** The sync that begins when `running` ends; callers arriving now join it. */
  readonly pending: Sync | undefined
}

const idle: Group = { running: undefined, pending: undefined }

export const make = (fs: FileSystem.FileSystem): Effect.Effect<DirectorySync> =>
  Effect.map(Ref.make<ReadonlyMap<string, Group>>(new Map()), (groups) => {
    const update = (directory: string, f: (group: Group) => Group) =>
      Ref.update(groups, (all) => new Map(all).set(directory, f(all.get(directory) ?? idle)))

    /** Runs the sync `mine` once `previous` (if any) has ended, and hands its outcome to every caller that joined it. */
    const perform = (directory: string, mine: Sync, previous: Sync | undefined) => {
      const run = Effect.zipRight(
        update(directory, (group) => ({ ...group, pending: undefined, running: mine })),
        Effect.exit(syncDirectory(fs, directory))
      ).pipe(
        Effect.tap(() =>
          update(directory, (group) => group.running === mine ? { ...group, running: undefined } : group)
        ),
        Effect.flatMap((exit) => Effect.zipRight(Deferred.done(mine, exit), exit))
      )
      // Uninterruptible: the callers that joined this sync wait for it whatever happens to this one.
      return Effect.uninterruptible(
        previous === undefined ? run : Effect.zipRight(Effect.exit(Deferred.await(previous)), run)
      )
    }

    return (directory) =>
      Effect.flatten(Ref.modify(groups, (all): [Effect.Effect<void, PlatformError>, ReadonlyMap<string, Group>] => {
        const group = all.get(directory) ?? idle
        // A sync not begun yet begins after this call: joining it is as good as starting one.
        if (group.pending !== undefined) return [Deferred.await(group.pending), all]
        const mine = Deferred.unsafeMake<void, PlatformError>(FiberId.none)
        return [perform(directory, mine, group.running), new Map(all).set(directory, { ...group, pending: mine })]
      }))
  })
