/**
 * Uploading a dropped PDF as core's uploaders do: one request to `POST /v1/files` for a small
 * file, the chunked protocol (`/v1/uploads`: init, a signed PUT per part, then the `cache://` URL)
 * for a large one. Requests go through XMLHttpRequest, the one browser API that reports the
 * progress of a request body. A part is sent again after a failure (a part sent again replaces
 * itself); an upload creates no task, so nothing here can pay twice.
 */
import * as UploadProtocol from "@pdf-transform/core/UploadProtocol"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

/** Files above this go in parts: the protocol's smallest part size, so a smaller file is one part anyway. */
export const chunkedAbove = 5 * 1024 * 1024

const partAttempts = 3

export interface Uploaded {
  /** What to submit as `pdfURL`. */
  readonly pdfURL: string
  /** The id under which `GET /v1/files/{id}` answers the PDF to its uploader. */
  readonly fileId: string
}

export class UploadFailed extends Error {}

interface XhrAnswer {
  readonly status: number
  readonly json: unknown
}

const xhr = (
  method: string,
  url: string,
  headers: Record<string, string>,
  body: Blob | string | undefined,
  onProgress: (loaded: number) => void
): Promise<XhrAnswer> =>
  new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open(method, url)
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value)
    request.upload.addEventListener("progress", (event) => onProgress(event.loaded))
    request.addEventListener("load", () => {
      let json: unknown = undefined
      try {
        json = JSON.parse(request.responseText)
      } catch {
        // A body that is not JSON: the status tells the rest.
        json = undefined
      }
      resolve({ status: request.status, json })
    })
    request.addEventListener("error", () => reject(new UploadFailed("the server did not answer")))
    request.addEventListener("abort", () => reject(new UploadFailed("the upload was stopped")))
    request.send(body ?? null)
  })

const problem = (what: string, answer: XhrAnswer): UploadFailed => {
  const body = answer.json as { readonly message?: unknown } | undefined
  const message = typeof body?.message === "string" ? body.message : `HTTP ${answer.status}`
  return new UploadFailed(`${what}: ${message}`)
}

const decode = <A, I>(schema: Schema.Schema<A, I>, what: string, answer: XhrAnswer): A =>
  Either.getOrThrowWith(Schema.decodeUnknownEither(schema)(answer.json), () => problem(what, answer))

const WholeFile = Schema.Struct({ url: Schema.String })

const whole = async (key: string, file: File, onProgress: (fraction: number) => void): Promise<Uploaded> => {
  const answer = await xhr(
    "POST",
    "/v1/files",
    { authorization: `Bearer ${key}`, "content-type": "application/pdf" },
    file,
    (loaded) => onProgress(loaded / Math.max(1, file.size))
  )
  if (answer.status !== 201) throw problem("the upload was refused", answer)
  const { url } = decode(WholeFile, "the upload's answer is not a URL", answer)
  const fileId = decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "")
  return { pdfURL: url, fileId }
}

const chunked = async (key: string, file: File, onProgress: (fraction: number) => void): Promise<Uploaded> => {
  const bearer = { authorization: `Bearer ${key}` }
  const json = { ...bearer, "content-type": "application/json" }
  const init = await xhr(
    "POST",
    "/v1/uploads/init",
    json,
    JSON.stringify({ file_extension: ".pdf", size: file.size }),
    () => {}
  )
  if (init.status !== 200) throw problem("the upload was refused", init)
  const { data } = decode(UploadProtocol.InitResponse, "the upload's answer is not the protocol's", init)
  const sent = new Map<number, number>()
  const report = () => onProgress([...sent.values()].reduce((a, b) => a + b, 0) / Math.max(1, file.size))
  for (const [part, url] of Object.entries(data.presigned_urls)) {
    const number = Number(part)
    const { length, offset } = UploadProtocol.partRange(file.size, data.part_size, number)
    for (let attempt = 1;; attempt++) {
      const answer = await xhr(
        "PUT",
        url,
        { "content-type": "application/octet-stream" },
        file.slice(offset, offset + length),
        (loaded) => {
          sent.set(number, loaded)
          report()
        }
      ).catch((error: unknown) => {
        if (attempt >= partAttempts) throw error
        return undefined
      })
      if (answer?.status === 200) break
      if (answer !== undefined && (answer.status < 500 || attempt >= partAttempts)) {
        throw problem(`part ${number} was refused`, answer)
      }
      await new Promise((resume) => setTimeout(resume, 500 * attempt))
    }
    sent.set(number, length)
    report()
  }
  const done = await xhr("GET", `/v1/uploads/${encodeURIComponent(data.upload_id)}/url`, bearer, undefined, () => {})
  if (done.status !== 200) throw problem("the upload did not complete", done)
  const { data: { url } } = decode(UploadProtocol.UrlResponse, "the upload's answer is not the protocol's", done)
  return { pdfURL: url, fileId: data.upload_id }
}

/** Uploads `file`, reporting the fraction sent (0 to 1). */
export const upload = (key: string, file: File, onProgress: (fraction: number) => void): Promise<Uploaded> =>
  file.size > chunkedAbove ? chunked(key, file, onProgress) : whole(key, file, onProgress)
