/**
 * Servers for the page's browser tests, in this process on 127.0.0.1 (a free port), stopped by
 * `dispose`; and what a test asks of them directly over the contract (a task's output as `/v1`
 * answers it), to compare with what the page shows and downloads.
 */
import { Converter } from "@pdf-transform/converter/Converter"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Redacted } from "effect"
import * as Server from "../../src/Server.js"

export const key = "page-test-key"
export const bearer = { authorization: `Bearer ${key}` }

export interface Running {
  /** `http://127.0.0.1:port`, where the page is. */
  readonly origin: string
  readonly dispose: () => Promise<void>
}

export const start = async (
  converter: Layer.Layer<Converter>,
  options: Partial<Server.Options> = {}
): Promise<Running> => {
  const layer = Server.layer({ keys: [Redacted.make(key)], port: 0, host: "127.0.0.1", ...options }).pipe(
    Layer.provide(converter),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)),
    Layer.orDie
  )
  const runtime = ManagedRuntime.make(layer)
  const { baseUrl } = await runtime.runPromise(Server.Server)
  return { origin: baseUrl.replace(/\/v1$/, ""), dispose: () => runtime.dispose() }
}

/** A converter whose Markdown is `markdown` whatever the PDF: what a hostile or broken converter could write. */
export const fixedMarkdown = (markdown: string): Layer.Layer<Converter> =>
  Layer.succeed(
    Converter,
    {
      toMarkdown: () => Effect.succeed({ output: markdown, pages: 1, warnings: [] }),
      toEpub: () => Effect.die("this test converter makes Markdown only")
    } satisfies ConverterModule.Service
  )

/** The output of a completed task as `/v1` answers it: result, then its signed download URL. */
export const outputOf = async (origin: string, format: "markdown" | "epub", sessionID: string): Promise<Buffer> => {
  const result = await fetch(`${origin}/v1/pdf-transform-${format}/result/${sessionID}`, { headers: bearer })
  const status = await result.json() as { state: string; data?: { downloadURL: string } }
  if (status.state !== "completed" || status.data === undefined) throw new Error(`task ${sessionID} is ${status.state}`)
  const download = await fetch(status.data.downloadURL)
  if (download.status !== 200) throw new Error(`download of ${sessionID}: HTTP ${download.status}`)
  return Buffer.from(await download.arrayBuffer())
}

/** Uploads `pdf` past the page: its `pdfURL`. */
export const uploadDirectly = async (origin: string, pdf: Uint8Array): Promise<string> => {
  const upload = await fetch(`${origin}/v1/files`, {
    method: "POST",
    headers: { ...bearer, "content-type": "application/pdf" },
    body: new Blob([new Uint8Array(pdf)])
  })
  return (await upload.json() as { url: string }).url
}

/** A submit of the test's own, past the page: it takes what the key's limits allow, as another client would. */
export const submitDirectly = async (origin: string, url: string): Promise<void> => {
  const submit = await fetch(`${origin}/v1/pdf-transform-markdown/submit`, {
    method: "POST",
    headers: { ...bearer, "content-type": "application/json" },
    body: JSON.stringify({ pdfURL: url, model: "gundam" })
  })
  if (submit.status !== 200) throw new Error(`the test's own submit: HTTP ${submit.status}`)
}
