/** Downloading an output, streamed or whole up to a bound; Content-Length checked, expired URL refreshed. */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Channel from "effect/Channel"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type * as Contract from "../Contract.js"
import type * as Client from "../PdfTransformClient.js"
import { DownloadFailed } from "../PdfTransformError.js"
import * as RateLimit from "../RateLimit.js"
import { defaults } from "./defaults.js"
import * as exchange from "./exchange.js"
import { span } from "./tracing.js"
import * as transport from "./transport.js"

/** What downloading needs from the client. */
export interface Env {
  /** The platform client without the API's base URL and credentials. */
  readonly raw: HttpClient.HttpClient
  readonly requestTimeout: Duration.Duration
  readonly idleTimeout: Duration.Duration
  readonly status: (task: Client.Task<Contract.Format>) => Effect.Effect<Client.Status, Client.StatusError>
}

type Failed = (reason: string, extra?: Partial<ConstructorParameters<typeof DownloadFailed>[0]>) => DownloadFailed

/** What the consumer of the stream gets: the output read in one piece, or a stream of its chunks. */
type Body = Channel.Channel<Chunk.Chunk<Uint8Array>, unknown, DownloadFailed, unknown, unknown, unknown>

/** The Content-Length, when it is a plain number. */
const announcedLength = (response: HttpClientResponse.HttpClientResponse): number | undefined => {
  const header = response.headers["content-length"]
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined
}

const idle = (env: Env) => `no data for ${Duration.format(env.idleTimeout)}`

/** A body announced small, read in one piece within the idle timeout. */
const small = (
  env: Env,
  response: HttpClientResponse.HttpClientResponse,
  expected: number,
  failed: Failed
): Effect.Effect<Uint8Array, DownloadFailed> => {
  const read = Effect.mapError(
    response.arrayBuffer,
    (e) => failed(`body interrupted: ${transport.describe(e.cause ?? e)}`, { cause: e })
  )
  return Effect.flatMap(
    Effect.timeoutFail(read, { duration: env.idleTimeout, onTimeout: () => failed(idle(env)) }),
    (bytes) =>
      bytes.byteLength === expected
        ? Effect.succeed(new Uint8Array(bytes))
        : Effect.fail(
          failed(`expected ${expected} bytes, received ${bytes.byteLength}`, {
            expectedBytes: expected,
            receivedBytes: bytes.byteLength
          })
        )
  )
}

/** The body of a 2xx answer, failing if fewer bytes arrive than announced or none for the idle timeout. */
const body = (
  env: Env,
  response: HttpClientResponse.HttpClientResponse,
  failed: Failed
): Effect.Effect<Body, DownloadFailed> => {
  const expected = announcedLength(response)
  const short = (received: number) =>
    failed(`expected ${expected} bytes, received ${received}`, { expectedBytes: expected, receivedBytes: received })
  if (expected !== undefined && expected <= defaults.smallDownloadBytes) {
    // Small and announced: one read, memory still bounded by the announced size.
    return Effect.map(small(env, response, expected, failed), (bytes) => Channel.write(Chunk.of(bytes)))
  }
  let received = 0
  const counted = response.stream.pipe(
    Stream.mapError((e) =>
      failed(`body interrupted: ${transport.describe(e.cause ?? e)}`, { receivedBytes: received, cause: e })
    ),
    Stream.timeoutFail(() => failed(idle(env), { receivedBytes: received }), env.idleTimeout),
    Stream.tap((chunk) =>
      Effect.sync(() => {
        received += chunk.length
      })
    )
  )
  // A short body is an error at the end of the stream, never a short file that looks whole.
  const check = Stream.suspend(() =>
    expected === undefined || received === expected ? Stream.empty : Stream.fail(short(received))
  )
  return Effect.succeed(Stream.toChannel(Stream.concat(counted, check)))
}

/** Opening a download: the answer to its URL, an expired URL refreshed once by polling the result. */
const opener = (env: Env, completed: Client.CompletedTask<Contract.Format>, failed: Failed) => {
  const open = (url: string) =>
    Effect.mapError(
      env.raw.execute(HttpClientRequest.get(url)),
      (e) => failed(`request failed: ${exchange.classify(e).reason}`, { cause: e })
    ).pipe(Effect.timeoutFail({
      duration: env.requestTimeout,
      onTimeout: () => failed(`no answer within ${Duration.format(env.requestTimeout)}`)
    }))

  /** A URL that expired is refreshed by polling the result once. */
  const refresh = Effect.gen(function*() {
    const task = { format: completed.format, sessionId: completed.sessionId, rateLimit: RateLimit.empty }
    const current = yield* Effect.mapError(env.status(task), (e) => failed(`refreshing the URL: ${e.message}`))
    if (current.state !== "completed") {
      const state = current.state === "unrecognized" ? current.reported : current.state
      return yield* failed(`the URL expired and the task is now ${state}`)
    }
    return current.data.downloadURL
  })

  const from = (
    url: string,
    mayRefresh: boolean
  ): Effect.Effect<HttpClientResponse.HttpClientResponse, DownloadFailed> =>
    Effect.flatMap(open(url), (response) => {
      if ((response.status === 403 || response.status === 404 || response.status === 410) && mayRefresh) {
        return Effect.logDebug("download URL refused, refreshing").pipe(
          Effect.annotateLogs({ sessionId: completed.sessionId, status: response.status }),
          Effect.zipRight(refresh),
          Effect.flatMap((fresh) => from(fresh, false))
        )
      }
      if (!exchange.isSuccess(response.status)) {
        return Effect.fail(failed(`HTTP ${response.status}`, { status: response.status }))
      }
      return Effect.succeed(response)
    })

  return from(completed.downloadURL, true)
}

const failure = (completed: Client.CompletedTask<Contract.Format>): Failed => (reason, extra = {}) =>
  new DownloadFailed({ sessionId: completed.sessionId, reason, ...extra })

/** The download operation of a client. */
export const make =
  (env: Env) =>
  <F extends Contract.Format>(completed: Client.CompletedTask<F>): Stream.Stream<Uint8Array, DownloadFailed> => {
    const failed = failure(completed)
    return Stream.fromChannel(
      Channel.unwrap(Effect.flatMap(opener(env, completed, failed), (response) => body(env, response, failed)))
    ).pipe(Stream.withSpan("PdfTransformClient.download", {
      attributes: { sessionId: completed.sessionId, format: completed.format },
      captureStackTrace: false
    }))
  }

/** The whole output in memory, at most `maxBytes`. */
export const makeBytes = (env: Env) =>
<F extends Contract.Format>(
  completed: Client.CompletedTask<F>,
  options?: Client.DownloadBytesOptions
): Effect.Effect<Uint8Array, DownloadFailed> => {
  const failed = failure(completed)
  const maxBytes = options?.maxBytes ?? defaults.maxWholeDownloadBytes
  const tooLarge = (bytes: number, announced: boolean) =>
    failed(
      `the output is ${announced ? "" : "more than "}${bytes} bytes, more than maxBytes (${maxBytes})`,
      announced ? { expectedBytes: bytes } : { receivedBytes: bytes }
    )
  const whole = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<Uint8Array, DownloadFailed> => {
    const expected = announcedLength(response)
    if (expected !== undefined && expected > maxBytes) return Effect.fail(tooLarge(expected, true))
    return Effect.flatMap(body(env, response, failed), (channel) =>
      Effect.suspend(() => {
        const chunks: Array<Uint8Array> = []
        let length = 0
        // Stops at the first chunk past the bound: an unannounced output never grows beyond it.
        return Stream.runForEach(Stream.fromChannel(channel), (chunk) => {
          length += chunk.length
          if (length > maxBytes) return Effect.fail(tooLarge(length, false))
          chunks.push(chunk)
          return Effect.void
        }).pipe(Effect.map(() => concat(chunks, length)))
      }))
  }
  return Effect.flatMap(opener(env, completed, failed), (response) => {
    const expected = announcedLength(response)
    return expected !== undefined && expected <= Math.min(maxBytes, defaults.smallDownloadBytes)
      ? small(env, response, expected, failed)
      : whole(response)
  }).pipe(span("PdfTransformClient.downloadBytes", { sessionId: completed.sessionId, format: completed.format }))
}

const concat = (chunks: ReadonlyArray<Uint8Array>, length: number): Uint8Array => {
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(length)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}
