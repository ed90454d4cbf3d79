/**
 * The web page's files at `/` and `/assets/{name}`, with a Content-Security-Policy allowing this server's
 * own scripts and styles only, and DOM writes only through the page's sanitizer.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { Asset, Assets } from "./webAssets.js"

/**
 * `connect-src` names the public URL's origin: download URLs are built on it, and behind a proxy
 * it may not be the page's. `trusted-types` names the sanitizer's policy.
 */
export const securityHeaders = (publicUrl: URL): Record<string, string> => ({
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${publicUrl.origin}`,
    "frame-src blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types dompurify"
  ].join("; "),
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
})

const serve = (asset: Asset, headers: Record<string, string>) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
    request.headers["if-none-match"] === asset.etag
      ? HttpServerResponse.empty({ status: 304, headers: { ...headers, etag: asset.etag } })
      : HttpServerResponse.uint8Array(asset.body, {
        status: 200,
        contentType: asset.contentType,
        headers: { ...headers, etag: asset.etag, "cache-control": "no-cache" }
      }))

const missing = (reason: string, headers: Record<string, string>) =>
  Effect.succeed(HttpServerResponse.text(`Not found: ${reason}\n`, { status: 404, headers }))

/** The page's routes, over its files, or answering why there is no page. */
export const routes = (
  assets: Either.Either<Assets, string>,
  publicUrl: URL
): HttpRouter.HttpRouter<never, never> => {
  const headers = securityHeaders(publicUrl)
  const file = (name: string) =>
    Either.match(assets, {
      onLeft: (reason) => missing(reason, headers),
      onRight: (files) => {
        const asset = files.get(name)
        return asset === undefined || name === "index.html"
          ? missing(`no file ${JSON.stringify(name)}`, headers)
          : serve(asset, headers)
      }
    })
  const index = Either.match(assets, {
    onLeft: (reason) => missing(reason, headers),
    onRight: (files) => serve(files.get("index.html")!, headers)
  })
  return HttpRouter.empty.pipe(
    HttpRouter.get("/", index),
    HttpRouter.get("/assets/:name", Effect.flatMap(HttpRouter.params, (params) => file(params["name"] ?? "")))
  )
}
