/** Where a submit's PDF comes from: the key's own upload here, or (remote fetching on) a checked public address. */
import * as UploadProtocol from "@pdf-transform/core/UploadProtocol"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { resolveTarget } from "./addresses.js"
import type { KeyIdentity } from "./auth.js"
import type { AppContext } from "./context.js"
import type { HttpFailure } from "./http.js"
import { fail } from "./http.js"
import type { StorageError, TaskSource } from "./store.js"

/** The `pdfURL` of a finished chunked upload, as `GET /v1/uploads/{id}/url` answers it. */
export const cacheUrlOf = UploadProtocol.cacheUrl

const cacheUrlPattern = /^cache:\/\/([0-9a-f-]{36})\.pdf$/

/** The upload id a pdfURL names at this server's `/v1/files/`; `""` for such a URL with no valid id. */
export const ownFileId = (context: AppContext, url: URL, requestHost: string | undefined): string | undefined => {
  const publicUrl = context.options.publicUrl
  const publicPath = publicUrl.pathname.replace(/\/+$/, "")
  const onPublicUrl = url.origin === publicUrl.origin && url.pathname.startsWith(`${publicPath}/v1/files/`)
  const onRequestHost = requestHost !== undefined && url.host === requestHost.toLowerCase() &&
    url.pathname.startsWith("/v1/files/")
  if (!onPublicUrl && !onRequestHost) return undefined
  const prefix = onPublicUrl ? `${publicPath}/v1/files/` : "/v1/files/"
  try {
    const id = decodeURIComponent(url.pathname.slice(prefix.length))
    return id === "" || id.includes("/") ? "" : id
  } catch {
    return ""
  }
}

const localFile = (
  context: AppContext,
  fileId: string,
  key: KeyIdentity,
  now: number,
  unknown: string
): Effect.Effect<TaskSource, HttpFailure | StorageError> =>
  Effect.flatMap(
    fileId === "" ? Effect.succeed(Option.none()) : context.store.entry(fileId, now),
    (entry) =>
      Option.isNone(entry) || entry.value.kind !== "file" || entry.value.owner !== key.id
        ? Effect.fail(fail(400, "invalid_request", unknown))
        : Effect.succeed({ _tag: "File", fileId })
  )

/** The source of `pdfURL` for `key`, or the 400 that says why it is refused. */
export const resolveSource = (
  context: AppContext,
  pdfURL: string,
  key: KeyIdentity,
  requestHost: string | undefined,
  now: number
): Effect.Effect<TaskSource, HttpFailure | StorageError> => {
  if (pdfURL.startsWith("cache://")) {
    const uploadId = cacheUrlPattern.exec(pdfURL)?.[1] ?? ""
    const named = JSON.stringify(pdfURL.slice(0, 200))
    return localFile(
      context,
      uploadId,
      key,
      now,
      `pdfURL ${named} names no finished upload of this server (unknown, expired, incomplete or another key's)`
    )
  }
  const url = new URL(pdfURL)
  const fileId = ownFileId(context, url, requestHost)
  if (fileId !== undefined) {
    return localFile(
      context,
      fileId,
      key,
      now,
      "pdfURL names no upload of this server (unknown, expired or another key's)"
    )
  }
  const remote = context.options.remoteFetch
  if (!remote.enabled) {
    return Effect.fail(
      fail(
        400,
        "invalid_request",
        "pdfURL must be a URL returned by POST /v1/files on this server (remote fetching is disabled)"
      )
    )
  }
  return resolveTarget(pdfURL, {
    resolve: remote.resolve,
    timeoutMs: remote.resolveTimeoutMs,
    allowHosts: remote.allowHosts
  }).pipe(
    Effect.map((target): TaskSource => ({
      _tag: "Remote",
      url: target.url.href,
      address: target.address,
      family: target.family
    })),
    Effect.mapError((refused) => fail(400, "invalid_request", refused.reason))
  )
}
