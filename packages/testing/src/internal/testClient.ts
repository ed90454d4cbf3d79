import * as HttpClient from "@effect/platform/HttpClient"
import * as Contract from "@pdf-transform/core/Contract"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type * as TestPdfTransformClient from "../TestPdfTransformClient.js"
import * as fakeServer from "./fakeServer.js"

export const defaultOutput = "# converted\n"

const decodeRequest = Schema.decodeUnknownEither(Contract.ConversionRequest)

export const make = (
  options: TestPdfTransformClient.Options = {}
): Effect.Effect<{ readonly client: PdfTransformClient.Service; readonly control: TestPdfTransformClient.Service }> =>
  Effect.gen(function*() {
    const server = yield* fakeServer.make({ output: defaultOutput, ...options.server })
    const real = yield* PdfTransformClient.make({
      ...options.client,
      apiKey: Redacted.make(server.apiKey),
      baseUrl: server.baseUrl
    }).pipe(Effect.provideService(HttpClient.HttpClient, server.httpClient))
    const scripts: Array<TestPdfTransformClient.Script> = []
    const calls: Array<TestPdfTransformClient.Call> = []

    const record = (call: Omit<TestPdfTransformClient.Call, "at">, at?: number): Effect.Effect<void> =>
      at === undefined
        ? Effect.flatMap(Clock.currentTimeMillis, (now) => record(call, now))
        : Effect.sync(() => void calls.push({ ...call, at }))

    /** A submit under the next script (a request the client refuses uses none). */
    const scripted = <F extends Contract.Format, E>(
      request: Contract.ConversionRequestInput,
      submit: Effect.Effect<PdfTransformClient.Task<F>, PdfTransformClient.SubmitError | E>
    ): Effect.Effect<PdfTransformClient.Task<F>, PdfTransformClient.SubmitError | E> =>
      Effect.suspend(() => {
        if (Either.isLeft(decodeRequest(request))) return submit
        const script = scripts.shift()
        if (script === undefined) return submit
        if (script._tag === "SubmitError") return Effect.fail(script.error)
        return Effect.zipRight(
          server.enqueueSubmit({ _tag: "Accept", timeline: script.timeline, output: script.output }),
          submit
        )
      })

    /** Records a submit (of `submit` or `convert`) when it ends, with the created task's id. */
    const recordSubmit = <F extends Contract.Format, E>(
      method: "submit" | "convert",
      format: F,
      request: Contract.ConversionRequestInput,
      submit: Effect.Effect<PdfTransformClient.Task<F>, PdfTransformClient.SubmitError | E>
    ) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) =>
        scripted(request, submit).pipe(
          Effect.tapBoth({
            onFailure: () => record({ method, format, request }, at),
            onSuccess: (task) => record({ method, format, sessionId: task.sessionId, request }, at)
          })
        ))

    /** Records a call on a task, then runs it. */
    const onTask = <A, E>(
      method: TestPdfTransformClient.Call["method"],
      task: {
        readonly format: Contract.Format
        readonly sessionId: NonNullable<TestPdfTransformClient.Call["sessionId"]>
      },
      run: Effect.Effect<A, E>
    ) => Effect.zipRight(record({ method, format: task.format, sessionId: task.sessionId }), run)

    const client: PdfTransformClient.Service = {
      baseUrl: real.baseUrl,
      submit: (format, request, retry) => recordSubmit("submit", format, request, real.submit(format, request, retry)),
      status: (task) => onTask("status", task, real.status(task)),
      awaitCompletion: (task, poll) => onTask("awaitCompletion", task, real.awaitCompletion(task, poll)),
      watch: (task, poll) => Stream.unwrap(onTask("watch", task, Effect.succeed(real.watch(task, poll)))),
      convert: (format, request, poll) =>
        recordSubmit("convert", format, request, real.submit(format, request)).pipe(
          Effect.flatMap((task) => real.awaitCompletion(task, poll))
        ),
      download: (completed) => Stream.unwrap(onTask("download", completed, Effect.succeed(real.download(completed)))),
      downloadBytes: (completed, options) => onTask("downloadBytes", completed, real.downloadBytes(completed, options))
    }

    const control: TestPdfTransformClient.Service = {
      script: (...more) => Effect.sync(() => void scripts.push(...more)),
      calls: Effect.sync(() => calls.slice()),
      server
    }

    return { client, control }
  })
