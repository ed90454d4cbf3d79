/** The fake's answers: replies with contract bodies, faults in their place, and the response a reply becomes. */
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Contract from "@pdf-transform/core/Contract"
import * as Duration from "effect/Duration"
import * as Schema from "effect/Schema"
import type * as FakeServer from "../FakeServer.js"
import { FakeResponse } from "./response.js"

/** Downloads are delivered in chunks of this size, like a socket would. */
const chunkSize = 64 * 1024

const textEncoder = new TextEncoder()

/** Statuses whose responses cannot carry a body (fetch's Response refuses one). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304])

export interface Reply {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body?: string | Uint8Array | undefined
  /** How many bytes of the body are actually delivered, for truncated downloads. */
  readonly deliver?: number | undefined
}

export type Outcome =
  | { readonly _tag: "Reply"; readonly reply: Reply; readonly slowMs?: number | undefined }
  | { readonly _tag: "Reset"; readonly code: "ECONNREFUSED" | "ECONNRESET" }

export const reply = (r: Reply, slowMs?: number): Outcome =>
  slowMs === undefined ? { _tag: "Reply", reply: r } : { _tag: "Reply", reply: r, slowMs }

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body)
})

export const errorJson = (status: number, error: string, message: string): Reply => json(status, { error, message })

export const unauthenticated = (authorization: string | undefined): Reply =>
  json(
    401,
    Schema.encodeSync(Contract.UnauthenticatedBody)({
      error: "Unauthorized",
      code: "UNAUTHENTICATED",
      message: authorization === undefined ? "Missing API key" : "Invalid API key",
      resolution: "Send the header `Authorization: Bearer <API key>` with a key from the console"
    }),
    { "www-authenticate": "Bearer realm=\"pdf-transform\", error=\"invalid_token\"" }
  )

export const notFound = (sessionId: string): Reply =>
  json(
    404,
    Schema.encodeSync(Contract.NotFoundBody)({
      success: false,
      state: "not_found",
      error: `Task ${sessionId} not found`
    })
  )

/** What a proxy in front of a failing server answers. */
const serverError = (status: number): Reply => {
  const title = `${status} ${status === 503 ? "Service Temporarily Unavailable" : "Server Error"}`
  return {
    status,
    headers: { "content-type": "text/html" },
    body: `<html><head><title>${title}</title></head><body><h1>${title}</h1><hr><center>nginx</center></body></html>`
  }
}

export const rawReply = (response: FakeServer.RawResponse): Reply => ({
  status: response.status,
  headers: { ...response.headers },
  body: response.body
})

export type ContractStep =
  | FakeServer.ProcessingStep
  | FakeServer.CompletedStep
  | FakeServer.FailedStep
  | FakeServer.RawStep

/** The answer of a result request at a step of the timeline; every contract body goes through its Schema. */
export const renderStep = (step: ContractStep, downloadURL: () => string): Reply => {
  switch (step.state) {
    case "processing": {
      const status: Contract.ProcessingStatus = step.progress === undefined
        ? { success: true, state: "processing" }
        : { success: true, state: "processing", progress: step.progress }
      return json(step.httpStatus ?? 200, Schema.encodeSync(Contract.ProcessingStatus)(status))
    }
    case "completed":
      return json(
        200,
        Schema.encodeSync(Contract.CompletedStatus)({
          success: true,
          state: "completed",
          progress: step.progress ?? 100,
          data: { downloadURL: downloadURL() }
        })
      )
    case "failed": {
      const status: Contract.FailedStatus = step.progress === undefined
        ? { success: false, state: "failed", error: step.error }
        : { success: false, state: "failed", error: step.error, progress: step.progress }
      return json(200, Schema.encodeSync(Contract.FailedStatus)(status))
    }
    case "raw":
      return rawReply(step.response)
  }
}

/** The fault in place of the answer `handle` would give. */
export const withFault = (fault: FakeServer.Fault, handle: () => Reply): Outcome => {
  switch (fault._tag) {
    case "ResetBeforeSend":
      return { _tag: "Reset", code: "ECONNREFUSED" }
    case "ServerError":
      return reply(serverError(fault.status ?? 503))
    case "Raw":
      return reply(rawReply(fault.response))
    case "ResetAfterSend":
      handle()
      return { _tag: "Reset", code: "ECONNRESET" }
    case "SlowBody":
      return reply(handle(), Duration.toMillis(Duration.decode(fault.delay)))
    case "InvalidBody":
      handle()
      return reply(json(200, { success: "yes" }))
    case "NotJson":
      handle()
      return reply({ status: 200, headers: { "content-type": "application/json" }, body: "<html>oops" })
  }
}

/** The platform error a reset connection gives, with the code a socket would carry. */
export const connectionReset = (
  request: HttpClientRequest.HttpClientRequest,
  code: "ECONNREFUSED" | "ECONNRESET"
): HttpClientError.RequestError =>
  new HttpClientError.RequestError({
    request,
    reason: "Transport",
    cause: Object.assign(new Error(code === "ECONNREFUSED" ? "connect ECONNREFUSED" : "read ECONNRESET"), { code }),
    description: code
  })

/** The response of a reply: its body cut in chunks, as much of it as is delivered. */
export const toResponse = (
  request: HttpClientRequest.HttpClientRequest,
  outcome: Extract<Outcome, { _tag: "Reply" }>
): FakeResponse => {
  const { body, headers, status } = outcome.reply
  const chunks: Array<Uint8Array> = []
  if (body !== undefined && !nullBodyStatuses.has(status)) {
    const bytes = typeof body === "string" ? textEncoder.encode(body) : body
    const deliver = Math.min(outcome.reply.deliver ?? bytes.length, bytes.length)
    for (let offset = 0; offset < deliver; offset += chunkSize) {
      chunks.push(bytes.subarray(offset, Math.min(offset + chunkSize, deliver)))
    }
  }
  // A slow body's delay runs on the reading fiber's Clock: a TestClock in tests decides when it arrives.
  return new FakeResponse(request, status, headers, chunks, outcome.slowMs)
}
