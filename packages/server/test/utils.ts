/**
 * Test helpers: a raw HTTP request over a real socket (so headers, paths and bodies are exactly
 * what the test says), and small PDFs.
 */
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Http from "node:http"

export interface RawResponse {
  readonly status: number
  readonly headers: Http.IncomingHttpHeaders
  readonly body: Buffer
  readonly json: unknown
}

export interface RawRequest {
  readonly method?: string
  readonly path: string
  readonly headers?: Http.OutgoingHttpHeaders
  readonly body?: string | Uint8Array
  /** Send the body chunked, without Content-Length. */
  readonly chunked?: boolean
}

const agent = new Http.Agent({ keepAlive: false })

/** One request to `base` (e.g. `http://127.0.0.1:1234`), resolved with the whole answer. */
export const raw = (base: string, request: RawRequest): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const url = new URL(base)
    const body = request.body === undefined
      ? undefined
      : typeof request.body === "string"
      ? Buffer.from(request.body)
      : Buffer.from(request.body)
    const headers: Http.OutgoingHttpHeaders = { ...request.headers }
    if (body !== undefined && request.chunked !== true && headers["content-length"] === undefined) {
      headers["content-length"] = body.byteLength
    }
    const req = Http.request({
      agent,
      host: url.hostname,
      port: url.port,
      method: request.method ?? "GET",
      path: request.path,
      headers
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const buffer = Buffer.concat(chunks)
        let json: unknown = undefined
        try {
          json = JSON.parse(buffer.toString("utf8"))
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: buffer, json })
      })
      res.on("error", reject)
    })
    // The server may answer (413) and close before the whole body is written: that is expected.
    req.on("error", reject)
    if (body !== undefined) {
      if (request.chunked === true) {
        const step = 64 * 1024
        for (let offset = 0; offset < body.byteLength; offset += step) req.write(body.subarray(offset, offset + step))
      } else {
        req.write(body)
      }
    }
    req.end()
  })

/** A tiny file that passes the `%PDF-` check (not a readable PDF). */
export const fakePdf = (size = 256): Uint8Array => {
  const bytes = new Uint8Array(size).fill(0x20)
  bytes.set(new TextEncoder().encode("%PDF-1.4\n"), 0)
  return bytes
}

export const corpusUrl = new URL("../../../corpus/", import.meta.url)

/** The SHA-256 and size of a PDF, as the digest converter writes them. */
export const digestOf = (pdf: Uint8Array) =>
  `${Crypto.createHash("sha256").update(pdf).digest("hex")} ${pdf.byteLength}\n`

/** A converter whose output names the exact bytes it was given: equal outputs mean equal inputs. */
export const digestConverter: ConverterModule.Service = {
  toMarkdown: (pdf) => Effect.succeed({ output: digestOf(pdf), pages: 1, warnings: [] }),
  toEpub: (pdf) => Effect.succeed({ output: new TextEncoder().encode(digestOf(pdf)), pages: 1, warnings: [] })
}
