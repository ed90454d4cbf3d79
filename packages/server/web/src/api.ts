/**
 * The page's requests: the contract's routes under `/v1` and the page's API under `/api`. Each
 * answer is told apart by its status first, then decoded with the Schemas the server encodes with.
 * A submit is never sent twice by this module: what to do after each outcome is the caller's.
 */
import * as Contract from "@pdf-transform/core/Contract"
import * as RateLimit from "@pdf-transform/core/RateLimit"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as WebApi from "../../src/WebApi.js"

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly json: unknown
}

/** No answer came: the request may or may not have reached the server. */
export class NoAnswer extends Error {}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    // Not JSON (a proxy's page, an empty body): the status alone tells what happened.
    return undefined
  }
}

export const send = async (
  key: string | undefined,
  method: string,
  url: string,
  body?: { readonly json: unknown }
): Promise<Answer> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (key !== undefined) headers["authorization"] = `Bearer ${key}`
  if (body !== undefined) headers["content-type"] = "application/json"
  try {
    const response = await fetch(url, {
      method,
      headers,
      credentials: "omit",
      cache: "no-store",
      ...(body === undefined ? {} : { body: JSON.stringify(body.json) })
    })
    return { status: response.status, headers: response.headers, json: parseJson(await response.text()) }
  } catch (cause) {
    throw new NoAnswer(cause instanceof Error ? cause.message : String(cause))
  }
}

/** The `message` of an error body, else its `error`, else the status. */
export const messageOf = (answer: Answer): string => {
  const body = answer.json
  if (typeof body === "object" && body !== null) {
    const { error, message } = body as { readonly message?: unknown; readonly error?: unknown }
    if (typeof message === "string") return message
    if (typeof error === "string") return error
  }
  return `the server answered HTTP ${answer.status}`
}

export type Fetched<A> =
  | { readonly _tag: "Ok"; readonly value: A }
  | { readonly _tag: "Unauthenticated"; readonly message: string }
  | { readonly _tag: "Failed"; readonly message: string }

const fetched = async <A, I>(schema: Schema.Schema<A, I>, key: string, path: string): Promise<Fetched<A>> => {
  try {
    const answer = await send(key, "GET", path)
    if (answer.status === 401) return { _tag: "Unauthenticated", message: messageOf(answer) }
    if (answer.status !== 200) return { _tag: "Failed", message: messageOf(answer) }
    return Either.match(Schema.decodeUnknownEither(schema)(answer.json), {
      onLeft: () => ({ _tag: "Failed", message: "the server's answer is not what this page expects" }),
      onRight: (value) => ({ _tag: "Ok", value })
    })
  } catch (error) {
    if (error instanceof NoAnswer) return { _tag: "Failed", message: `the server did not answer (${error.message})` }
    throw error
  }
}

export const settings = (key: string) => fetched(WebApi.Settings, key, WebApi.paths.settings)

export const overview = (key: string) => fetched(WebApi.Overview, key, WebApi.paths.overview)

export type SubmitOutcome =
  | { readonly _tag: "Submitted"; readonly sessionID: string; readonly rateLimit: RateLimit.RateLimitInfo }
  | {
    readonly _tag: "RateLimited"
    readonly reason: Contract.RateLimitReason | undefined
    /** The server's delay, when it gave one. */
    readonly delayMs: number | undefined
  }
  | { readonly _tag: "Unauthenticated"; readonly message: string }
  /** Sent, and no usable answer: a task may exist. */
  | { readonly _tag: "Unknown"; readonly reason: string }
  | { readonly _tag: "Refused"; readonly message: string }

const decodeSubmitted = Schema.decodeUnknownEither(Contract.SubmittedTask)
const decodeRateLimited = Schema.decodeUnknownEither(Contract.RateLimitedBody)
const rateLimitOf = (headers: Headers) =>
  RateLimit.fromHeaders({
    "ratelimit-policy": headers.get("ratelimit-policy") ?? undefined,
    ratelimit: headers.get("ratelimit") ?? undefined
  })

export const submit = async (
  key: string,
  format: Contract.Format,
  request: Contract.ConversionRequestInput
): Promise<SubmitOutcome> => {
  let answer: Answer
  try {
    answer = await send(key, "POST", `${Contract.versionPrefix}${Contract.submitPath(format)}`, { json: request })
  } catch (error) {
    if (error instanceof NoAnswer) return { _tag: "Unknown", reason: `no answer came (${error.message})` }
    throw error
  }
  if (answer.status === 200) {
    return Either.match(decodeSubmitted(answer.json), {
      onLeft: () => ({ _tag: "Unknown", reason: "the server's answer had no task id" }),
      onRight: (body) => ({ _tag: "Submitted", sessionID: body.sessionID, rateLimit: rateLimitOf(answer.headers) })
    })
  }
  if (answer.status === 401) return { _tag: "Unauthenticated", message: messageOf(answer) }
  if (answer.status === 429) {
    const body = Either.getOrUndefined(decodeRateLimited(answer.json))
    const delay = Option.orElse(
      RateLimit.retryDelay({
        retryAfterMs: body?.retryAfterMs,
        retryAfter: answer.headers.get("retry-after"),
        date: answer.headers.get("date"),
        now: Date.now()
      }),
      () => RateLimit.resetDelay(rateLimitOf(answer.headers))
    )
    return { _tag: "RateLimited", reason: body?.reason, delayMs: Option.getOrUndefined(delay) }
  }
  return { _tag: "Refused", message: messageOf(answer) }
}

export type ResultOutcome =
  | { readonly _tag: "Status"; readonly status: Contract.TaskStatus }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Unauthenticated"; readonly message: string }
  /** Try again later: no answer, a 5xx, a 429, a body that does not decode. */
  | { readonly _tag: "Transient"; readonly reason: string }

const decodeStatus = Schema.decodeUnknownEither(Contract.TaskStatus)

export const result = async (key: string, format: Contract.Format, sessionID: string): Promise<ResultOutcome> => {
  let answer: Answer
  try {
    answer = await send(key, "GET", `${Contract.versionPrefix}${Contract.resultPath(format, sessionID)}`)
  } catch (error) {
    if (error instanceof NoAnswer) return { _tag: "Transient", reason: error.message }
    throw error
  }
  if (answer.status === 404) return { _tag: "NotFound" }
  if (answer.status === 401) return { _tag: "Unauthenticated", message: messageOf(answer) }
  if (answer.status !== 200) return { _tag: "Transient", reason: messageOf(answer) }
  return Either.match(decodeStatus(answer.json), {
    onLeft: () => ({ _tag: "Transient", reason: "the server's answer is not a task status" }),
    onRight: (status) => ({ _tag: "Status", status })
  })
}

/** A fresh download URL of a completed task, or why there is none. */
export const downloadUrl = async (key: string, format: Contract.Format, sessionID: string): Promise<string> => {
  const outcome = await result(key, format, sessionID)
  if (outcome._tag === "Status" && outcome.status.state === "completed") return outcome.status.data.downloadURL
  throw new Error(
    outcome._tag === "NotFound"
      ? "the server no longer keeps this task"
      : outcome._tag === "Status"
      ? `the task is ${outcome.status.state}`
      : outcome._tag === "Unauthenticated"
      ? outcome.message
      : outcome.reason
  )
}

/** The bytes at a signed download URL. */
export const output = async (url: string): Promise<Blob> => {
  const response = await fetch(url, { credentials: "omit", cache: "no-store" })
  if (response.status !== 200) throw new Error(`the download answered HTTP ${response.status}`)
  return response.blob()
}

/** An uploaded PDF, opened with the uploader's key. */
export const uploadedPdf = async (key: string, fileId: string): Promise<Blob> => {
  const response = await fetch(`${Contract.versionPrefix}/files/${encodeURIComponent(fileId)}`, {
    headers: { authorization: `Bearer ${key}` },
    credentials: "omit",
    cache: "no-store"
  })
  if (response.status !== 200) throw new Error(`the PDF is no longer on the server (HTTP ${response.status})`)
  return response.blob()
}
