/**
 * A scriptable in-memory `PdfTransformClient` for testing code that uses the client: each submit
 * follows a script (a timeline of statuses, or an error), every call is recorded, and all waiting
 * is done on Effect's `Clock`, so tests run under `TestClock`.
 *
 * @since 0.1.0
 */
import type * as Contract from "@pdf-transform/core/Contract"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as FakeServer from "./FakeServer.js"
import * as internal from "./internal/testClient.js"

/**
 * A status a scripted task can report.
 *
 * @since 0.1.0
 * @category scripts
 */
export type Step = FakeServer.ProcessingStep | FakeServer.CompletedStep | FakeServer.FailedStep

/**
 * The statuses of a scripted task over time, measured on the Clock from its submit: the last step
 * whose `after` is <= the elapsed time; before the first step the task is processing.
 *
 * @since 0.1.0
 * @category scripts
 */
export type Timeline = ReadonlyArray<{ readonly after: Duration.DurationInput; readonly status: Step }>

/**
 * What one submit does.
 *
 * @since 0.1.0
 * @category scripts
 */
export type Script =
  /** Creates a task that follows `timeline` and downloads `output` (default {@link defaultOutput}). */
  | { readonly _tag: "Timeline"; readonly timeline: Timeline; readonly output?: Uint8Array | string | undefined }
  /** The submit fails with this error; no task is created. */
  | { readonly _tag: "SubmitError"; readonly error: PdfTransformClient.SubmitError }

/**
 * A recorded call of a client method. Only the calls a user makes are recorded: the polls inside
 * `awaitCompletion`, `watch` and `convert`, and the submit inside `convert`, are not.
 *
 * @since 0.1.0
 * @category models
 */
export interface Call {
  readonly method: "submit" | "status" | "awaitCompletion" | "watch" | "convert" | "download"
  readonly format?: Contract.Format | undefined
  /** The task's id; for `submit` and `convert`, the id of the created task, if one was. */
  readonly sessionId?: string | undefined
  /** The request of `submit` and `convert`, as given. */
  readonly request?: unknown
  /** Clock time of the call, in epoch milliseconds. */
  readonly at: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Scripts consumed one per submit, in order; when none is left: completed at once with {@link defaultOutput}. */
  readonly script: (...scripts: ReadonlyArray<Script>) => Effect.Effect<void>
  /** Every call made so far, in order. */
  readonly calls: Effect.Effect<ReadonlyArray<Call>>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class TestPdfTransformClient
  extends Context.Tag("@pdf-transform/testing/TestPdfTransformClient")<TestPdfTransformClient, Service>()
{}

/**
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /** Delay between polls when `PollOptions.initialInterval` is not given (default 1 s). */
  readonly pollInterval?: Duration.DurationInput | undefined
  /** Time before `PollTimeout` when `PollOptions.deadline` is not given (default 600 s, as the contract's example). */
  readonly deadline?: Duration.DurationInput | undefined
}

/**
 * The output of a task whose script gives none.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultOutput = internal.defaultOutput

/**
 * Builds the client and its controls.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (
  options?: Options
) => Effect.Effect<{ readonly client: PdfTransformClient.Service; readonly control: Service }> = internal.make

/**
 * Provides core's `PdfTransformClient` tag with the in-memory client, and its controls.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options?: Options
): Layer.Layer<PdfTransformClient.PdfTransformClient | TestPdfTransformClient> =>
  Layer.effectContext(
    Effect.map(
      make(options),
      ({ client, control }) =>
        Context.make(PdfTransformClient.PdfTransformClient, client).pipe(Context.add(TestPdfTransformClient, control))
    )
  )
