/** The real `PdfTransformClient` over a `FakeServer`, with scripts for each submit and a record of every call.
 * @since 0.1.0 */
import type * as Contract from "@pdf-transform/core/Contract"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as FakeServer from "./FakeServer.js"
import * as internal from "./internal/testClient.js"

/** A status a scripted task can report: any step of a `FakeServer` timeline.
 * @since 0.1.0
 * @category scripts */
export type Step = FakeServer.StatusStep

/** The statuses of a scripted task over time: a `FakeServer` timeline, measured on the Clock from its submit.
 * @since 0.1.0
 * @category scripts */
export type Timeline = FakeServer.Timeline

/** What one submit does.
 * @since 0.1.0
 * @category scripts */
export type Script =
  /** Creates a task that follows `timeline` and downloads `output` (default {@link defaultOutput}). */
  | { readonly _tag: "Timeline"; readonly timeline: Timeline; readonly output?: FakeServer.Output | undefined }
  /** The submit fails with this error (see `TestErrors`); no request is sent, no task is created. */
  | { readonly _tag: "SubmitError"; readonly error: PdfTransformClient.SubmitError }

/** A recorded call of a client method.
 * @since 0.1.0
 * @category models */
export interface Call {
  readonly method: "submit" | "status" | "awaitCompletion" | "watch" | "convert" | "download" | "downloadBytes"
  readonly format?: Contract.Format | undefined
  /** The task's id; for `submit` and `convert`, the id of the created task, if one was. */
  readonly sessionId?: Contract.SessionId | undefined
  readonly request?: unknown
  /** Clock time of the call, in epoch milliseconds. */
  readonly at: number
}

/** @since 0.1.0
 * @category models */
export interface Service {
  /** Scripts used one per valid submit, in order; when none is left, completed at once with {@link defaultOutput}. */
  readonly script: (...scripts: ReadonlyArray<Script>) => Effect.Effect<void>
  readonly calls: Effect.Effect<ReadonlyArray<Call>>
  /** The fake behind the client, for faults, requests and tasks. */
  readonly server: FakeServer.Service
}

/** @since 0.1.0
 * @category tags */
export class TestPdfTransformClient
  extends Context.Tag("@pdf-transform/testing/TestPdfTransformClient")<TestPdfTransformClient, Service>()
{}

/** @since 0.1.0
 * @category options */
export interface Options {
  /** The options of the client under test; the API key and base URL are the fake's. */
  readonly client?: Omit<PdfTransformClient.Options, "apiKey" | "baseUrl"> | undefined
  /** The options of the fake (its `output` defaults to {@link defaultOutput}). */
  readonly server?: FakeServer.Options | undefined
}

/** The output of a task whose script gives none.
 * @since 0.1.0
 * @category constants */
export const defaultOutput: string = internal.defaultOutput

/** Builds the client and its controls.
 * @since 0.1.0
 * @category constructors */
export const make: (
  options?: Options
) => Effect.Effect<{ readonly client: PdfTransformClient.Service; readonly control: Service }> = internal.make

/** Provides core's `PdfTransformClient` tag with the scripted client, and its controls.
 * @since 0.1.0
 * @category layers */
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
