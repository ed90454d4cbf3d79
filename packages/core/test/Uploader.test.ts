import { assert, describe, it } from "@effect/vitest"
import { Uploader } from "@pdf-transform/core"
import { Chunk, Effect, Fiber, Stream, TestClock } from "effect"

/** An upload that reports `steps` progress events, one per millisecond of Clock time. */
const stepped = (steps: number) =>
  Uploader.make((source, report) =>
    Effect.gen(function*() {
      for (let sent = 1; sent <= steps; sent++) {
        yield* report({ _tag: "Progress", sent, total: steps })
        yield* Effect.sleep("1 millis")
      }
      return { _tag: "Uploaded", url: `cache://${Uploader.nameOf(source)}`, bytes: steps }
    })
  )

describe("Uploader.make", () => {
  it.effect("upload answers the URL; uploadWithProgress reports every step to a reader that keeps up", () =>
    Effect.gen(function*() {
      const service = stepped(5)
      const url = yield* Effect.fork(service.upload({ path: "/in/a.pdf" }))
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* Fiber.join(url), "cache://a.pdf")
      const events = yield* Effect.fork(
        Stream.runCollect(service.uploadWithProgress({ name: "b.pdf", bytes: new Uint8Array() }))
      )
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(
        Chunk.toReadonlyArray(yield* Fiber.join(events)).map((e) => e._tag === "Progress" ? e.sent : e.url),
        [
          1,
          2,
          3,
          4,
          5,
          "cache://b.pdf"
        ]
      )
    }))

  it.effect("a slow reader misses intermediate progress, never the end; a failure reaches the reader", () =>
    Effect.gen(function*() {
      const slow = stepped(200).uploadWithProgress({ path: "/in/big.pdf" }).pipe(
        Stream.tap(() => Effect.sleep("100 millis")),
        Stream.runCollect
      )
      const fiber = yield* Effect.fork(slow)
      yield* TestClock.adjust("1 minute")
      const events = Chunk.toReadonlyArray(yield* Fiber.join(fiber))
      assert.isBelow(events.length, 201, "some of the 200 progress events were dropped")
      assert.deepStrictEqual(events[events.length - 1], { _tag: "Uploaded", url: "cache://big.pdf", bytes: 200 })
      const sent = events.flatMap((e) => e._tag === "Progress" ? [e.sent] : [])
      assert.isTrue(sent.every((value, i) => i === 0 || value > sent[i - 1]!))

      const failing = Uploader.make(() => Effect.fail(new Uploader.UploadTooLarge({ name: "x.pdf", bytes: 10 })))
      const error = yield* Effect.flip(Stream.runDrain(failing.uploadWithProgress({ path: "/x.pdf" })))
      assert.strictEqual(error._tag, "UploadTooLarge")
    }))
})
