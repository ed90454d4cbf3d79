/**
 * Which service converts: a remote one (`--base-url` / `PDF_TRANSFORM_BASE_URL`, `--api-key` /
 * `PDF_TRANSFORM_API_KEY`), or, with neither, the reference server started in this process on a
 * free loopback port with a random key and the local converter. Also the one place that decides
 * how local files are uploaded.
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as ChunkedUploader from "@pdf-transform/core/ChunkedUploader"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import * as ServerUploader from "@pdf-transform/core/ServerUploader"
import type * as Uploader from "@pdf-transform/core/Uploader"
import * as UploadProtocol from "@pdf-transform/core/UploadProtocol"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { UsageError } from "../CliError.js"

/** Where the hosted service takes uploads (core's fact, re-exported for the CLI's tests). */
export const hostedUploadBaseUrl = UploadProtocol.hostedUploadBaseUrl

export interface Flags {
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  readonly baseUrl: Option.Option<string>
  readonly uploadBaseUrl: Option.Option<string>
}

export type Backend =
  | { readonly _tag: "Embedded" }
  | {
    readonly _tag: "Remote"
    readonly baseUrl: string
    readonly apiKey: Redacted.Redacted<string>
    /** Whether `baseUrl` is the hosted service's. */
    readonly hosted: boolean
    readonly uploadBaseUrl: Option.Option<string>
    /** Where the key came from, for the first line. */
    readonly keyFrom: "--api-key" | "PDF_TRANSFORM_API_KEY"
  }

/** A running service: where it is and the key it takes. */
export interface Connection {
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
}

const fromEnv = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map(Option.filter((value) => value.trim() !== "")),
    Effect.orElseSucceed(() => Option.none<string>())
  )

const checkUrl = (url: string, flag: string): Effect.Effect<string, UsageError> => {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  return parsed !== undefined && (parsed.protocol === "http:" || parsed.protocol === "https:")
    ? Effect.succeed(url.replace(/\/+$/, ""))
    : Effect.fail(new UsageError({ message: `${flag} must be an http(s) URL, not "${url}"` }))
}

/** The backend the flags and the environment select; a base URL without a key is a usage error. */
export const choose = (flags: Flags): Effect.Effect<Backend, UsageError> =>
  Effect.gen(function*() {
    const envKey = yield* fromEnv("PDF_TRANSFORM_API_KEY")
    const envBase = yield* fromEnv("PDF_TRANSFORM_BASE_URL")
    const apiKey = Option.orElse(flags.apiKey, () => Option.map(envKey, Redacted.make))
    const base = Option.orElse(flags.baseUrl, () => envBase)
    if (Option.isNone(apiKey) && Option.isNone(base)) return { _tag: "Embedded" } as const
    if (Option.isNone(apiKey)) {
      return yield* new UsageError({
        message: `${Option.getOrThrow(base)} needs an API key: give it with --api-key or PDF_TRANSFORM_API_KEY ` +
          `(or give no base URL at all to convert on this machine)`
      })
    }
    const baseUrl = yield* checkUrl(Option.getOrElse(base, () => PdfTransformClient.defaultBaseUrl), "--base-url")
    const uploadBaseUrl = yield* Effect.transposeOption(
      Option.map(flags.uploadBaseUrl, (url) => checkUrl(url, "--upload-base-url"))
    )
    return {
      _tag: "Remote",
      baseUrl,
      apiKey: apiKey.value,
      hosted: baseUrl === PdfTransformClient.defaultBaseUrl,
      uploadBaseUrl,
      keyFrom: Option.isSome(flags.apiKey) ? "--api-key" : "PDF_TRANSFORM_API_KEY"
    }
  })

/** The first line of a conversion: which backend is used. */
export const describe = (backend: Backend): string =>
  backend._tag === "Embedded" ?
    "Backend: this machine (embedded reference server, local converter, no account)" :
    `Backend: ${backend.baseUrl}${backend.hosted ? " (the hosted service)" : ""}, API key from ${backend.keyFrom}`

/** The upload protocol that reaches the backend, and where. */
export type UploadRoute =
  | { readonly _tag: "Files" }
  | { readonly _tag: "Chunked"; readonly uploadBaseUrl: string }

/**
 * How local files reach the service: a reference server (embedded, or a base URL other than the
 * hosted service's) takes them at its own `/v1/files`; the hosted service, or any
 * `--upload-base-url`, through the chunked remote-cache protocol.
 */
export const uploadRoute = (backend: Backend): UploadRoute => {
  if (backend._tag === "Embedded") return { _tag: "Files" }
  const remoteCache = Option.orElse(
    backend.uploadBaseUrl,
    () => backend.hosted ? Option.some(hostedUploadBaseUrl) : Option.none()
  )
  return Option.isNone(remoteCache) ? { _tag: "Files" } : { _tag: "Chunked", uploadBaseUrl: remoteCache.value }
}

/** The `Uploader` layer of a route. */
export const uploader = (
  route: UploadRoute,
  connection: Connection
): Layer.Layer<Uploader.Uploader, never, HttpClient.HttpClient | FileSystem.FileSystem> =>
  route._tag === "Files" ?
    ServerUploader.layer(connection) :
    ChunkedUploader.layer({ apiKey: connection.apiKey, uploadBaseUrl: route.uploadBaseUrl })
