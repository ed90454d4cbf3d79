/**
 * What every handler of the application shares: the resolved options, the converter, the key
 * check, the signer, the limiter, the store, the conversion gate and the scope that owns
 * background conversions. Built once per application.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Converter } from "@pdf-transform/converter/Converter"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import * as Gate from "@pdf-transform/core/Gate"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import type * as Scope from "effect/Scope"
import type { KeyIdentity } from "./auth.js"
import { authenticate, makeKeyRing } from "./auth.js"
import type { HttpFailure } from "./http.js"
import * as Limiter from "./limiter.js"
import type { ResolvedOptions } from "./options.js"
import type { Signer } from "./signing.js"
import { makeSigner } from "./signing.js"
import type { Store } from "./store.js"

export interface AppContext {
  readonly options: ResolvedOptions
  readonly converter: ConverterModule.Service
  /** The key of the request, or its 401. */
  readonly authenticate: Effect.Effect<KeyIdentity, HttpFailure, HttpServerRequest.HttpServerRequest>
  readonly signer: Signer
  readonly limiter: Limiter.Limiter
  readonly store: Store
  /** Conversions running at once, first come first served. */
  readonly conversions: Gate.Gate
  /** Starts a fiber owned by the application's scope: closing it interrupts the fiber. */
  readonly runInBackground: (effect: Effect.Effect<void>) => void
}

export const makeContext = (
  options: ResolvedOptions,
  store: Store
): Effect.Effect<AppContext, never, ConverterModule.Converter | Scope.Scope> =>
  Effect.gen(function*() {
    const converter = yield* Converter
    const run = yield* FiberSet.makeRuntime<never, void, never>()
    return {
      options,
      converter,
      authenticate: authenticate(makeKeyRing(options.keys)),
      signer: makeSigner(options.signingKey),
      limiter: Limiter.make(options.limiter),
      store,
      conversions: Gate.make(options.maxConcurrentConversions),
      runInBackground: (effect) => {
        run(effect)
      }
    }
  })
