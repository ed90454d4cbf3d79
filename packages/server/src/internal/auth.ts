/**
 * Bearer-key authentication: keys kept as SHA-256 hashes, a presented key compared with every one in
 * constant time, so neither its length nor a match's position shows in the timing.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Contract from "@pdf-transform/core/Contract"
import * as Effect from "effect/Effect"
import type * as Redacted from "effect/Redacted"
import * as RedactedValue from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Crypto from "node:crypto"
import { HttpFailure } from "./http.js"
import type { LimiterConfig } from "./limiter.js"
import { credentialPattern } from "./settingValues.js"

/** The identity of an authenticated key, safe to log and to use as a limiter key. */
export interface KeyIdentity {
  /** The key's name, else `key#1`, `key#2`, ... in configuration order. */
  readonly id: string
  readonly limiter: LimiterConfig
}

/** A configured key: its identity, and the secret presented for it. */
export interface ConfiguredKey extends KeyIdentity {
  readonly secret: Redacted.Redacted<string>
}

export type AuthResult =
  | { readonly _tag: "Authenticated"; readonly key: KeyIdentity }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Malformed" }
  | { readonly _tag: "Invalid" }

export interface KeyRing {
  readonly authenticate: (authorization: string | undefined) => AuthResult
  readonly size: number
}

const sha256 = (text: string): Buffer => Crypto.createHash("sha256").update(text, "utf8").digest()

/** The key of `Authorization`: `Bearer <key>`, or the raw key alone as some of the hosted service's clients send it. */
export const credentialOf = (authorization: string | undefined): string | undefined | "malformed" => {
  if (authorization === undefined) return undefined
  const value = authorization.trim()
  if (value === "") return undefined
  const bearer = /^bearer(?:\s+(.*))?$/i.exec(value)
  const credential = bearer === null ? value : (bearer[1] ?? "").trim()
  return credentialPattern.test(credential) ? credential : "malformed"
}

/** Compares `candidate` with every hash: constant time per comparison, and no early exit. */
export const matchIndex = (hashes: ReadonlyArray<Buffer>, candidate: string): number => {
  const presented = sha256(candidate)
  let found = -1
  for (let i = 0; i < hashes.length; i++) {
    if (Crypto.timingSafeEqual(hashes[i]!, presented) && found === -1) found = i
  }
  return found
}

export const makeKeyRing = (keys: ReadonlyArray<ConfiguredKey>): KeyRing => {
  const hashes = keys.map((key) => sha256(RedactedValue.value(key.secret)))
  return {
    size: hashes.length,
    authenticate: (authorization) => {
      const credential = credentialOf(authorization)
      if (credential === undefined) return { _tag: "Missing" }
      if (credential === "malformed") return { _tag: "Malformed" }
      const index = matchIndex(hashes, credential)
      if (index === -1) return { _tag: "Invalid" }
      const { id, limiter } = keys[index]!
      return { _tag: "Authenticated", key: { id, limiter } }
    }
  }
}

/** Whether a configured key can ever be presented in an `Authorization` header. */
export const isUsableKey = (key: string): boolean => credentialPattern.test(key)

/** Splits `PDF_TRANSFORM_SERVER_KEYS`: comma separated, blanks dropped. */
export const parseKeyList = (text: string): Array<string> =>
  text.split(",").map((key) => key.trim()).filter((key) => key !== "")

const encodeUnauthenticated = Schema.encodeSync(Contract.UnauthenticatedBody)

const realm = "pdf-transform"

const messages: Record<Exclude<AuthResult["_tag"], "Authenticated">, string> = {
  Missing: "No API key was sent",
  Malformed: "The Authorization header is malformed",
  Invalid: "The API key is not valid for this server"
}

/** The 401 answer (RFC 6750 §3.1): a bare challenge without a credential, `invalid_token` for a refused one. */
export const unauthenticated = (result: Exclude<AuthResult, { _tag: "Authenticated" }>): HttpFailure => {
  const message = messages[result._tag]
  return new HttpFailure({
    status: 401,
    body: encodeUnauthenticated({
      error: "Unauthorized",
      code: "UNAUTHENTICATED",
      message,
      resolution:
        "Send the header 'Authorization: Bearer <API key>' with a key configured on this server (PDF_TRANSFORM_SERVER_KEYS)"
    }),
    headers: {
      "www-authenticate": result._tag === "Missing"
        ? `Bearer realm="${realm}"`
        : `Bearer realm="${realm}", error="invalid_token", error_description="${message}"`
    }
  })
}

export const authenticate = (
  keyRing: KeyRing
): Effect.Effect<KeyIdentity, HttpFailure, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const result = keyRing.authenticate(request.headers["authorization"])
    return result._tag === "Authenticated" ? Effect.succeed(result.key) : Effect.fail(unauthenticated(result))
  })
