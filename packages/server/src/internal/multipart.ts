/** The one file part (with a `filename`) of a `multipart/form-data` body, for clients posting a PDF as a form. */
import * as Either from "effect/Either"

const boundaryOf = (contentType: string): string | undefined => {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType)
  return match === null ? undefined : match[1] ?? match[2]
}

const headerEnd = Buffer.from("\r\n\r\n")

/** The bytes of the single file part, or why there is none. */
export const singleFilePart = (body: Uint8Array, contentType: string): Either.Either<Uint8Array, string> => {
  const boundary = boundaryOf(contentType)
  if (boundary === undefined) return Either.left("the multipart Content-Type has no boundary")
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const delimiter = Buffer.from(`--${boundary}`)
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`)
  const files: Array<Uint8Array> = []
  let position = buffer.indexOf(delimiter)
  if (position === -1) return Either.left("the multipart body has no part")
  for (;;) {
    position += delimiter.byteLength
    // `--` after a delimiter closes the body.
    if (buffer[position] === 0x2d && buffer[position + 1] === 0x2d) break
    const headersAt = buffer.indexOf(headerEnd, position)
    const end = headersAt === -1 ? -1 : buffer.indexOf(nextDelimiter, headersAt + headerEnd.byteLength)
    if (end === -1) return Either.left("the multipart body is truncated")
    const headers = buffer.toString("latin1", position, headersAt)
    if (/^content-disposition:[^\r\n]*;\s*filename\*?=/im.test(headers)) {
      // A copy, so the envelope is not kept alive by the stored file.
      files.push(new Uint8Array(buffer.subarray(headersAt + headerEnd.byteLength, end)))
    }
    position = end + 2
  }
  if (files.length !== 1) return Either.left(`the multipart body must hold one file part, not ${files.length}`)
  return Either.right(files[0]!)
}
