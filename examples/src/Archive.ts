/**
 * A small application service built on the client: converts a PDF to Markdown and returns the
 * text with its title line. The program and the test in this folder show how to wire it.
 */
import type { Contract } from "@pdf-transform/core"
import { PdfTransformClient } from "@pdf-transform/core"
import { Effect, Stream } from "effect"

export interface Archived {
  readonly sessionId: Contract.SessionId
  readonly title: string
  readonly markdown: string
}

/** Converts one PDF and reads the Markdown into memory (fine for one document; stream to disk for many). */
export const archive = (pdfURL: string, filename: string) =>
  Effect.gen(function*() {
    const client = yield* PdfTransformClient.PdfTransformClient
    const completed = yield* client.convert("markdown", { pdfURL, filename })
    const markdown = yield* client.download(completed).pipe(Stream.decodeText(), Stream.mkString)
    const title = markdown.split("\n").find((line) => line.startsWith("# "))?.slice(2).trim() ?? filename
    return { sessionId: completed.sessionId, title, markdown } satisfies Archived
  }).pipe(Effect.withSpan("Archive.archive", { attributes: { filename } }))
