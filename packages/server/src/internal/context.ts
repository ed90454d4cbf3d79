/** What every handler of the application shares, built once per application. */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Converter } from "@pdf-transform/converter/Converter"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import type { KeyIdentity } from "./auth.js"
import { authenticate, makeKeyRing } from "./auth.js"
import type { HttpFailure } from "./http.js"
import { fail } from "./http.js"
import type { Recorder } from "./metrics.js"
import { makeRecorder, noRecorder } from "./metrics.js"
import { note } from "./observe.js"
import type { ResolvedOptions } from "./options.js"
import type { Signer } from "./signing.js"
import { makeSigner } from "./signing.js"
import type { Store } from "./store.js"

export interface AppContext {
  readonly options: ResolvedOptions
  readonly converter: ConverterModule.Service
  readonly authenticate: Effect.Effect<KeyIdentity, HttpFailure, HttpServerRequest.HttpServerRequest>
  readonly signer: Signer
  readonly store: Store
  /** Tells this node's dispatcher (`dispatcher.ts`) that a task may be waiting: one pending signal is kept. */
  readonly wakeUps: Queue.Queue<void>
  /** The node is stopping: it is not ready, takes no submit and claims no task. */
  readonly draining: Ref.Ref<boolean>
  readonly metrics: Recorder
}

export const makeContext = (
  options: ResolvedOptions,
  store: Store
): Effect.Effect<AppContext, never, ConverterModule.Converter> =>
  Effect.gen(function*() {
    const converter = yield* Converter
    const wakeUps = yield* Queue.sliding<void>(1)
    const draining = yield* Ref.make(false)
    return {
      options,
      converter,
      authenticate: Effect.tap(authenticate(makeKeyRing(options.keys)), (key) => note({ key: key.id })),
      signer: makeSigner(options.signingKey),
      store,
      wakeUps,
      draining,
      metrics: options.metrics ? makeRecorder() : noRecorder
    }
  })

/** While the node drains, new work (a submit, a new upload) gets 503 with Retry-After: it goes to another node. */
export const refuseWhileDraining = (context: AppContext, what: "submit" | "upload"): Effect.Effect<void, HttpFailure> =>
  Effect.flatMap(Ref.get(context.draining), (draining) =>
    draining ?
      Effect.fail(
        fail(503, "draining", `This server is stopping; ${what} to another one or retry later`, {
          headers: { "retry-after": "5" }
        })
      ) :
      Effect.void)
