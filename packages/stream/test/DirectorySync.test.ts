/**
 * The output folder's shared fsync: a caller returns only after a sync that began after it asked,
 * and callers arriving while one runs share the next one.
 */
import { SystemError } from "@effect/platform/Error"
import * as FileSystem from "@effect/platform/FileSystem"
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Option } from "effect"
import * as DirectorySync from "../src/internal/directorySync.js"

/** A file system whose directory syncs each wait for a release, in order; `log` records what happened. */
const blockingFs = (log: Array<string>, failing: ReadonlySet<number> = new Set()) => {
  const releases: Array<Deferred.Deferred<void>> = []
  let syncs = 0
  const release = (n: number) =>
    Effect.gen(function*() {
      while (releases.length < n) yield* Effect.yieldNow()
      yield* Deferred.succeed(releases[n - 1]!, undefined)
    })
  const fs = FileSystem.makeNoop({
    open: (path) =>
      Effect.map(Deferred.make<void>(), (released): FileSystem.File => ({
        [FileSystem.FileTypeId]: FileSystem.FileTypeId,
        fd: FileSystem.FileDescriptor(3),
        stat: Effect.die("stat: not implemented"),
        seek: () => Effect.void,
        sync: Effect.suspend(() => {
          const n = ++syncs
          releases.push(released)
          log.push(`sync ${n} begins`)
          return Effect.zipRight(
            Deferred.await(released),
            failing.has(n) ?
              Effect.fail(
                new SystemError({ reason: "Unknown", module: "FileSystem", method: "sync", pathOrDescriptor: path })
              ) :
              Effect.sync(() => void log.push(`sync ${n} ends`))
          )
        }),
        read: () => Effect.die("read: not implemented"),
        readAlloc: () => Effect.succeed(Option.none()),
        truncate: () => Effect.die("truncate: not implemented"),
        write: () => Effect.die("write: not implemented"),
        writeAll: () => Effect.die("writeAll: not implemented")
      }))
  })
  return { fs, release, syncs: () => syncs }
}

describe("DirectorySync", () => {
  it.effect("callers arriving during a sync share the next one, which begins after the first ends", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const { fs, release, syncs } = blockingFs(log)
      const sync = yield* DirectorySync.make(fs)
      const call = (name: string) =>
        Effect.fork(Effect.zipRight(sync("/out"), Effect.sync(() => void log.push(`${name} returns`))))
      const first = yield* call("a")
      while (syncs() < 1) yield* Effect.yieldNow()
      // Both ask while sync 1 runs: sync 1 may have begun before their renames, so they wait for sync 2.
      const second = yield* call("b")
      const third = yield* call("c")
      yield* release(1)
      yield* Fiber.join(first)
      yield* release(2)
      yield* Fiber.join(second)
      yield* Fiber.join(third)
      assert.strictEqual(syncs(), 2)
      assert.deepStrictEqual(log, [
        "sync 1 begins",
        "sync 1 ends",
        "a returns",
        "sync 2 begins",
        "sync 2 ends",
        "b returns",
        "c returns"
      ])
      // Nothing running: the next caller syncs at once.
      const fourth = yield* call("d")
      yield* release(3)
      yield* Fiber.join(fourth)
      assert.strictEqual(syncs(), 3)
    }))

  it.effect("a failed sync fails every caller that shared it; the next caller syncs anew", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const { fs, release, syncs } = blockingFs(log, new Set([2]))
      const sync = yield* DirectorySync.make(fs)
      const first = yield* Effect.fork(sync("/out"))
      while (syncs() < 1) yield* Effect.yieldNow()
      const second = yield* Effect.fork(sync("/out"))
      const third = yield* Effect.fork(sync("/out"))
      yield* release(1)
      yield* release(2)
      assert.isTrue(Exit.isSuccess(yield* Fiber.await(first)))
      assert.isTrue(Exit.isFailure(yield* Fiber.await(second)))
      assert.isTrue(Exit.isFailure(yield* Fiber.await(third)))
      const fourth = yield* Effect.fork(sync("/out"))
      yield* release(3)
      assert.isTrue(Exit.isSuccess(yield* Fiber.await(fourth)))
    }))
})
