/** What every job of one batch shares: services, gates, the stop signal, and where events go. */
import type * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import type * as Uploader from "@pdf-transform/core/Uploader"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type BatchEvent, describeStop, type StopReason } from "../BatchEvent.js"
import type * as Journal from "../Journal.js"
import type { Concurrency } from "./concurrency.js"
import type { DirectorySync } from "./directorySync.js"
import type * as Gate from "./gate.js"
import type { Names } from "./names.js"
import type * as RateGate from "./rateGate.js"
import type { Reachability } from "./reachability.js"
import type { Seen } from "./seen.js"

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
  readonly maxOutageMs: number
}

/** Once set, no job submits any more; jobs waiting at a gate leave at once. */
export interface Stop {
  /** Why the batch stopped, once it has. */
  readonly current: Effect.Effect<Option.Option<StopReason>>
  /** Stops the batch (the first call wins) and reports it. */
  readonly stop: (reason: StopReason) => Effect.Effect<void>
  /** Completes with the reason when the batch stops. */
  readonly signal: Deferred.Deferred<StopReason>
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
  /** Whether the service answers; gives up on it (stopping the batch) when it does not. */
  readonly reachability: Reachability
  /** The first job of each key in this batch: a later identical job is a duplicate. */
  readonly seen: Seen
  readonly emit: (event: BatchEvent) => Effect.Effect<void>
}

export const makeStop = (
  emit: (event: BatchEvent) => Effect.Effect<void>,
  onStop: Effect.Effect<void>
): Effect.Effect<Stop> =>
  Effect.map(Deferred.make<StopReason>(), (signal) => ({
    signal,
    current: Effect.flatMap(
      Deferred.poll(signal),
      Option.match({ onNone: () => Effect.succeedNone, onSome: Effect.asSome })
    ),
    stop: (reason) =>
      Effect.flatMap(Deferred.succeed(signal, reason), (first) =>
        first ?
          Effect.zipRight(emit({ _tag: "Stopped", reason: describeStop(reason), stop: reason }), onStop) :
          Effect.void)
  }))
