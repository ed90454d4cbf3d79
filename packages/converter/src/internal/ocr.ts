/**
 * OCR with tesseract.js for pages that have no text layer. The English model comes from the
 * installed `@tesseract.js-data/eng` package: nothing is downloaded at run time.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import type * as TesseractModule from "tesseract.js"

const require = createRequire(import.meta.url)
// tesseract.js is CommonJS whose exports Node cannot name statically; require gives the real object.
const Tesseract = require("tesseract.js") as typeof TesseractModule
// The LSTM-only ("best_int") model: smaller and more accurate than the legacy+LSTM one.
const langPath = Path.join(Path.dirname(require.resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int")

/** A recognised word, in the pixel coordinates of the image (y is the baseline, from the top). */
export interface Word {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly size: number
}

/** Words tesseract is less sure of than this (0-100) are mostly specks and rules read as letters. */
const minConfidence = 20

/** A running tesseract worker (its own thread), terminated when the scope closes. */
export interface Ocr {
  readonly recognize: (png: Uint8Array) => Effect.Effect<ReadonlyArray<Word>, string>
}

const describe = (error: unknown): string => error instanceof Error ? error.message : String(error)

/** tesseract.js's worker thread, started through a script that turns its prints into messages. */
const workerPath = fileURLToPath(new URL("./tesseractThread.cjs", import.meta.url))

/** What tesseract printed, as `tesseractThread.cjs` forwards it. */
const printed = (message: unknown): string | undefined =>
  typeof message === "object" && message !== null && "status" in message &&
    message.status === "tesseract output" && "text" in message && typeof message.text === "string" ?
    message.text :
    undefined

/** Starts a tesseract worker with the local English model; it is terminated with the scope. */
export const make: Effect.Effect<Ocr, string, Scope.Scope> = Effect.gen(function*() {
  let lastError: string | undefined
  // Collected as tesseract prints them (outside any fiber), logged after each call.
  let output: Array<string> = []
  const logOutput = Effect.suspend(() => {
    const lines = output.join("").split("\n").map((line) => line.trim()).filter((line) => line !== "")
    output = []
    return lines.length === 0 ? Effect.void : Effect.logDebug("tesseract", ...lines)
  })
  const worker = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        Tesseract.createWorker("eng", Tesseract.OEM.LSTM_ONLY, {
          langPath,
          workerPath,
          gzip: true,
          cacheMethod: "none",
          logger: (message: unknown) => {
            const text = printed(message)
            if (text !== undefined) output.push(text)
          },
          // Without a handler tesseract.js rethrows worker errors globally; the job's promise
          // rejects with the same error, which is where we report it.
          errorHandler: (error: unknown) => {
            lastError = describe(error)
          }
        }),
      catch: (error) => `tesseract could not start: ${describe(error)}`
    }).pipe(Effect.ensuring(logOutput)),
    (worker) => Effect.promise(() => worker.terminate())
  )
  return {
    recognize: (png) =>
      Effect.tryPromise({
        try: () => worker.recognize(Buffer.from(png.buffer, png.byteOffset, png.byteLength), {}, { blocks: true }),
        catch: (error) => lastError ?? describe(error)
      }).pipe(
        Effect.ensuring(logOutput),
        // Words with their boxes go through the same layout rules as a text layer (columns,
        // paragraphs, lists), which reads a two-column scan better than tesseract's own blocks.
        Effect.map((result) =>
          (result.data.blocks ?? []).flatMap((block) =>
            block.paragraphs.flatMap((paragraph) =>
              paragraph.lines.flatMap((line) => {
                const size = line.rowAttributes?.rowHeight || line.bbox.y1 - line.bbox.y0
                return line.words
                  .filter((word) => word.confidence >= minConfidence && word.text.trim() !== "")
                  .map((word) => ({
                    text: word.text,
                    x: word.bbox.x0,
                    y: line.baseline.y0 + (line.baseline.y1 - line.baseline.y0) *
                        ((word.bbox.x0 - line.baseline.x0) / Math.max(1, line.baseline.x1 - line.baseline.x0)),
                    width: word.bbox.x1 - word.bbox.x0,
                    size
                  }))
              })
            )
          )
        )
      )
  }
})
