/** The client's HTTP edge: one request within its timeout, transport failures classified, bodies decoded. */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as Contract from "../Contract.js"
import {
  InvalidResponse,
  type Operation,
  TaskNotFound,
  TransportError,
  Unauthenticated,
  UnexpectedResponse
} from "../PdfTransformError.js"
import * as RateLimit from "../RateLimit.js"
import * as bodies from "./bodies.js"
import { defaults } from "./defaults.js"
import * as transport from "./transport.js"

/** A whole answer: status, headers and body text. */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly text: string
  /** Clock time at which the request was sent, in epoch milliseconds. */
  readonly sentAt: number
  /** Clock time at which the answer was read, in epoch milliseconds. */
  readonly at: number
}

/** Nothing of the request reached the server (refused, DNS): anything may be retried. */
export class NotSent extends Data.TaggedError("NotSent")<{ readonly reason: string; readonly cause: unknown }> {}

/** The request may have reached the server, and its answer was lost or cut (reset, timeout). */
export class Lost extends Data.TaggedError("Lost")<{ readonly reason: string; readonly cause?: unknown }> {}

/** The request could not be built (an invalid URL, a body that cannot be encoded): nothing was sent. */
export class Malformed extends Data.TaggedError("Malformed")<{ readonly reason: string }> {}

/** Why an exchange gave no answer. */
export type Failure = NotSent | Lost | Malformed

/** Classifies a platform error by what it says about the request reaching the server. */
export const classify = (error: HttpClientError.HttpClientError): Failure => {
  if (error._tag === "RequestError") {
    if (error.reason === "Transport") {
      const reason = transport.describe(error.cause ?? error)
      return transport.wasNotSent(error.cause)
        ? new NotSent({ reason, cause: error.cause })
        : new Lost({ reason, cause: error.cause })
    }
    return new Malformed({ reason: `${error.reason}: ${error.description ?? error.message}` })
  }
  // A ResponseError here means the body could not be read to its end: the request was sent.
  return new Lost({ reason: `answer unreadable: ${transport.describe(error.cause ?? error)}`, cause: error.cause })
}

/** A transport failure as the public error: `sent` is false only where nothing can have been sent. */
export const transportError = (operation: Operation, failure: Failure): TransportError =>
  new TransportError({
    operation,
    reason: failure.reason,
    sent: failure._tag === "Lost",
    ...(failure._tag === "Malformed" ? {} : { cause: failure.cause })
  })

/** Sends a request and reads its whole answer, both within the request time limit. */
export const send = (client: HttpClient.HttpClient, timeout: Duration.Duration) => {
  const onTimeout = () => new Lost({ reason: `no complete answer within ${Duration.format(timeout)}` })
  return (request: HttpClientRequest.HttpClientRequest): Effect.Effect<Answer, Failure> =>
    Effect.flatMap(Clock.currentTimeMillis, (sentAt) =>
      client.execute(request).pipe(
        Effect.flatMap((response) =>
          Effect.map(response.text, (text) => ({ status: response.status, headers: response.headers, text }))
        ),
        Effect.mapError(classify),
        Effect.timeoutFail({ duration: timeout, onTimeout }),
        Effect.flatMap((read) => Effect.map(Clock.currentTimeMillis, (at): Answer => ({ ...read, sentAt, at })))
      ))
}

/** The first characters of a body, for errors. */
export const excerpt = (text: string): string =>
  text.length <= defaults.bodyExcerptChars ? text : `${text.slice(0, defaults.bodyExcerptChars)}…`

const isJsonType = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return true
  const type = contentType.split(";")[0]!.trim().toLowerCase()
  return type === "application/json" || type.endsWith("+json")
}

/** Decodes a 2xx body: the Content-Type is checked first, then one Schema pass from the text. */
export const decode = <A>(
  schema: Schema.Schema<A, string>,
  operation: Operation,
  answer: Answer
): Either.Either<A, InvalidResponse> => {
  const invalid = (problem: string) =>
    new InvalidResponse({ operation, status: answer.status, problem, bodyExcerpt: excerpt(answer.text) })
  const contentType = answer.headers["content-type"]
  if (!isJsonType(contentType)) return Either.left(invalid(`expected JSON, got Content-Type ${contentType}`))
  return Either.mapLeft(
    Schema.decodeUnknownEither(schema)(answer.text),
    (error) => invalid(ParseResult.TreeFormatter.formatErrorSync(error))
  )
}

/** Decodes an error body leniently: a body that is not JSON, or not an object, reads as empty. */
const hint = <A extends object>(schema: Schema.Schema<A, string>) => {
  const decodeHint = Schema.decodeUnknownOption(schema)
  return (answer: Answer): Partial<A> => Option.getOrElse(decodeHint(answer.text), () => ({}))
}

const unauthenticatedHint = hint(bodies.UnauthenticatedHint)
const notFoundHint = hint(bodies.NotFoundHint)
const rateLimitedHint = hint(bodies.RateLimitedHint)

/** 401, with the server's explanation and challenge. */
export const unauthenticated = (operation: Operation, answer: Answer): Unauthenticated => {
  const body = unauthenticatedHint(answer)
  const challenge = answer.headers["www-authenticate"]
  return new Unauthenticated({
    operation,
    message: body.message ?? body.error ?? "missing or invalid credentials",
    resolution: body.resolution ?? "send a valid API key as 'Authorization: Bearer <key>'",
    ...(challenge === undefined ? {} : { challenge })
  })
}

/** 404 on a result request. */
export const taskNotFound = (
  task: { readonly format: Contract.Format; readonly sessionId: Contract.SessionId },
  answer: Answer
): TaskNotFound => {
  const detail = notFoundHint(answer).error
  return new TaskNotFound({
    format: task.format,
    sessionId: task.sessionId,
    ...(detail === undefined ? {} : { detail })
  })
}

/** What a 429 on a submit says: the reason, the delay asked for (checked and capped), the policies. */
export const rateLimitSignal = (answer: Answer) => {
  const body = rateLimitedHint(answer)
  const rateLimit = RateLimit.fromHeaders(answer.headers)
  const hinted = RateLimit.retryDelay({
    retryAfterMs: body.retryAfterMs,
    retryAfter: answer.headers["retry-after"],
    date: answer.headers["date"],
    now: answer.at
  })
  return {
    reason: body.reason,
    // Without an explicit hint, a spent quota's reset time (`r=0;t=1`) is the service's hint too.
    delay: Option.orElse(hinted, () => RateLimit.resetDelay(rateLimit)),
    rateLimit
  }
}

/** A status the operation does not expect; its body is kept as an excerpt, a Retry-After as a delay. */
export const unexpected = (operation: Operation, answer: Answer): UnexpectedResponse => {
  const contentType = answer.headers["content-type"]
  const retryAfterMs = RateLimit.parseRetryAfter(answer.headers["retry-after"], {
    date: answer.headers["date"],
    now: answer.at
  })
  return new UnexpectedResponse({
    operation,
    status: answer.status,
    bodyExcerpt: excerpt(answer.text),
    ...(contentType === undefined ? {} : { contentType }),
    ...(Option.isSome(retryAfterMs) ? { retryAfterMs: retryAfterMs.value } : {})
  })
}

/** Whether a status is in the 2xx range. */
export const isSuccess = (status: number): boolean => status >= 200 && status < 300
