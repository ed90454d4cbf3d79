/** What every job of one batch shares: services, gates, the stop signal, and where events go. */
import type * as Gate from "@pdf-transform/core/Gate"
import type * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import type * as Uploader from "@pdf-transform/core/Uploader"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { BatchEvent } from "../BatchEvent.js"
import type * as Journal from "../Journal.js"
import type * as RateGate from "../RateGate.js"
import type { Concurrency } from "./concurrency.js"
import type { DirectorySync } from "./directorySync.js"
import type { Names } from "./names.js"

/** The batch's options with every default filled. */
export interface Settings {
  readonly outputDirectory: string
  readonly concurrency: number
  readonly downloadConcurrency: number
  readonly uploadConcurrency: number
  readonly maxSubmitAttempts: number
  readonly resubmitAmbiguous: boolean
  readonly retryFailed: boolean
  readonly poll: PdfTransformClient.PollOptions | undefined
}

/** Once set, no job submits any more; jobs waiting at a gate leave at once. */
export interface Stop {
  /** Why the batch stopped, once it has. */
  readonly reason: () => string | undefined
  /** Stops the batch (the first call wins) and reports it. */
  readonly stop: (
    reason: string,
    error?: PdfTransformClient.SubmitError | PdfTransformClient.StatusError
  ) => Effect.Effect<void>
  /** Completes when the batch stops. */
  readonly signal: Deferred.Deferred<void>
}

export interface BatchContext {
  readonly settings: Settings
  readonly client: PdfTransformClient.Service
  readonly uploader: Option.Option<Uploader.Service>
  readonly journal: Journal.Service
  /** What the journal held when the batch began (read once: the memory journal copies it on each read). */
  readonly recovered: Journal.Recovered
  readonly names: Names
  readonly concurrency: Concurrency
  readonly rateGate: RateGate.RateGate
  readonly downloads: Gate.Gate
  /** The output folder's fsyncs, shared by the outputs that finish together. */
  readonly syncDirectory: DirectorySync
  readonly uploads: Gate.Gate
  readonly stop: Stop
  /** The first job of each key in this batch, by name: a later identical job is a duplicate. */
  readonly seen: Map<string, string>
  readonly emit: (event: BatchEvent) => Effect.Effect<void>
}

export const makeStop = (
  emit: (event: BatchEvent) => Effect.Effect<void>,
  onStop: Effect.Effect<void>
): Effect.Effect<Stop> =>
  Effect.map(Deferred.make<void>(), (signal) => {
    let reason: string | undefined
    return {
      reason: () => reason,
      signal,
      stop: (why, error) =>
        Effect.suspend(() => {
          if (reason !== undefined) return Effect.void
          reason = why
          return Effect.all([
            emit({ _tag: "Stopped", reason: why, error }),
            onStop,
            Deferred.succeed(signal, undefined)
          ], { discard: true })
        })
    }
  })
