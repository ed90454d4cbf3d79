/**
 * The embedded backend's converters: the pool started in the background (conversions wait for it,
 * and fail when it cannot start), and the one on the command's own thread.
 */
import { WorkerError } from "@effect/platform/WorkerError"
import { assert, describe, it } from "@effect/vitest"
import * as Converter from "@pdf-transform/converter/Converter"
import { Cause, Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import * as Fs from "node:fs"
import { inBackground, inProcess } from "../src/internal/liveConverter.js"

const pdf = new Uint8Array([37, 80, 68, 70])

/** A converter whose layer is built when `started` is done, and answers "converted". */
const slowConverter = (started: Deferred.Deferred<void>) =>
  Layer.effect(
    Converter.Converter,
    Effect.as(Deferred.await(started), {
      toMarkdown: () => Effect.succeed({ output: "converted", pages: 1, warnings: [] }),
      toEpub: () => Effect.succeed({ output: new Uint8Array(), pages: 1, warnings: [] })
    })
  )

describe("the converter started in the background", () => {
  it.scoped("is ready at once; a conversion waits until the converter has started, then runs on it", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const layer = yield* inBackground(slowConverter(started))
      const converter = yield* Effect.provide(Converter.Converter, layer)
      const conversion = yield* Effect.fork(converter.toMarkdown(pdf))
      yield* Effect.yieldNow()
      assert.isTrue(Option.isNone(yield* Fiber.poll(conversion)))
      yield* Deferred.succeed(started, undefined)
      assert.strictEqual((yield* Fiber.join(conversion)).output, "converted")
    }))

  it.scoped("one that cannot start fails each conversion with the reason, as a defect (not the document's fault)", () =>
    Effect.gen(function*() {
      const broken = Layer.fail(new WorkerError({ reason: "spawn", cause: new Error("no worker script") }))
      const layer = yield* inBackground(broken)
      const converter = yield* Effect.provide(Converter.Converter, layer)
      const exit = yield* Effect.exit(converter.toEpub(pdf))
      assert.isTrue(Exit.isFailure(exit) && Cause.isDie(exit.cause))
      assert.include(
        Cause.pretty(Exit.isFailure(exit) ? exit.cause : Cause.empty),
        "the local converter could not start"
      )
    }))
})

describe("the converter on this thread", () => {
  it.live(
    "lets the event loop run after each page, so requests, timers and Ctrl-C are not held until the end",
    () =>
      Effect.gen(function*() {
        const paper = Fs.readFileSync(new URL("../../../examples/pdfs/shared-mime-info-spec.pdf", import.meta.url))
        const converter = yield* Effect.provide(Converter.Converter, yield* inProcess)
        // Set by a callback of the event loop's next turn, asked for at each page's progress.
        const turned = new Set<number>()
        const late: Array<number> = []
        const result = yield* converter.toMarkdown(new Uint8Array(paper), {
          onProgress: ({ pagesDone }) =>
            Effect.sync(() => {
              if (pagesDone > 1 && !turned.has(pagesDone - 1)) late.push(pagesDone - 1)
              setImmediate(() => turned.add(pagesDone))
            })
        })
        assert.strictEqual(result.pages, 17)
        assert.deepStrictEqual(late, [])
      }),
    120_000
  )
})
