/** Signed URLs on the wire: built on the public URL, checked on a request (403 tampered, 410 expired). */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { AppContext } from "./context.js"
import type { HttpFailure } from "./http.js"
import { fail, queryOf } from "./http.js"
import type { Purpose } from "./signing.js"

/** The server's public URL without a trailing slash; paths are appended to it. */
export const publicBase = (context: AppContext): string => context.options.publicUrl.href.replace(/\/+$/, "")

/** `<public URL><path>?expires=<seconds>&signature=<base64url>` for `purpose` on `id` (`path` encoded). */
export const signedUrl = (
  context: AppContext,
  purpose: Purpose,
  path: string,
  id: string,
  expiresAtMs: number
): string => {
  const expires = Math.floor(expiresAtMs / 1000)
  return `${publicBase(context)}${path}?expires=${expires}&signature=${context.signer.sign(purpose, id, expires)}`
}

const expiredMessages: Record<Purpose, string> = {
  download: "This download URL has expired; poll the result again for a fresh one",
  file: "This file URL has expired",
  part: "This part URL has expired, and its upload with it; start the upload again"
}

/** Checks the request's signature for `purpose` on `id`; answers the current time when it holds. */
export const verifySigned = (
  context: AppContext,
  purpose: Purpose,
  id: string
): Effect.Effect<number, HttpFailure, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const query = queryOf(request.url)
    const now = yield* Clock.currentTimeMillis
    const verdict = context.signer.verify(
      purpose,
      id,
      query.get("expires") ?? undefined,
      query.get("signature") ?? undefined,
      now
    )
    if (verdict === "invalid") {
      return yield* fail(403, "invalid_signature", "The URL signature is missing or does not match")
    }
    if (verdict === "expired") return yield* fail(410, "expired", expiredMessages[purpose])
    return now
  })
