/** OCR with tesseract.js for pages without a usable text layer; models come installed, never downloaded. */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import type * as TesseractModule from "tesseract.js"

const require = createRequire(import.meta.url)
// CommonJS Node cannot name statically; required only when a page needs OCR.
const tesseract = (): typeof TesseractModule => require("tesseract.js") as typeof TesseractModule

/** A recognised word, in the pixel coordinates of the image (y is the baseline, from the top). */
export interface Word {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly size: number
  /** tesseract's confidence, 0-100. */
  readonly confidence: number
}

/** Words tesseract is less sure of than this (0-100) are mostly specks and rules read as letters. */
const minConfidence = 20

export interface Ocr {
  readonly recognize: (image: Uint8Array) => Effect.Effect<ReadonlyArray<Word>, string>
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

/** Language codes as tesseract names its models: "eng", "fra", "chi_sim". */
const languageCode = /^[a-z]{3}(?:_[a-z]+)?$/i

/** Each language's model file, from `directory` else its `@tesseract.js-data` package; or the first with neither. */
export const findModels = (
  languages: ReadonlyArray<string>,
  directory: string | undefined
): { readonly files: ReadonlyMap<string, string> } | { readonly missing: string; readonly searched: string } => {
  const files = new Map<string, string>()
  for (const language of languages) {
    const searched: Array<string> = []
    let found: string | undefined
    if (languageCode.test(language)) {
      if (directory !== undefined) {
        for (const name of [`${language}.traineddata`, `${language}.traineddata.gz`]) {
          const path = Path.join(directory, name)
          searched.push(path)
          if (found === undefined && Fs.existsSync(path)) found = path
        }
      }
      const packageName = `@tesseract.js-data/${language}`
      searched.push(packageName)
      if (found === undefined) {
        try {
          const dir = Path.dirname(require.resolve(`${packageName}/package.json`))
          const path = Path.join(dir, "4.0.0_best_int", `${language}.traineddata.gz`)
          if (Fs.existsSync(path)) found = path
        } catch {
          // Not installed: reported below with everything searched.
        }
      }
    }
    if (found === undefined) return { missing: language, searched: searched.join(", ") || "not a language code" }
    files.set(language, found)
  }
  return { files }
}

/** tesseract.js reads models from one directory: a temporary one links each (as `.gz`: it checks bytes, not names). */
const modelDirectory = (files: ReadonlyMap<string, string>): Effect.Effect<string, string, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-ocr-"))
        for (const [language, file] of files) Fs.symlinkSync(file, Path.join(dir, `${language}.traineddata.gz`))
        return dir
      },
      catch: (error) => `OCR models could not be prepared: ${describe(error)}`
    }),
    (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
  )

export const make = (models: ReadonlyMap<string, string>): Effect.Effect<Ocr, string, Scope.Scope> =>
  Effect.gen(function*() {
    const langPath = yield* modelDirectory(models)
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
          tesseract().createWorker([...models.keys()], tesseract().OEM.LSTM_ONLY, {
            langPath,
            workerPath,
            gzip: true,
            cacheMethod: "none",
            logger: (message: unknown) => {
              const text = printed(message)
              if (text !== undefined) output.push(text)
            },
            // Without a handler tesseract.js rethrows worker errors globally; the job's promise reports them.
            errorHandler: (error: unknown) => {
              lastError = describe(error)
            }
          }),
        catch: (error) => `tesseract could not start: ${describe(error)}`
      }).pipe(Effect.ensuring(logOutput)),
      (worker) => Effect.promise(() => worker.terminate())
    )
    return {
      recognize: (image) =>
        Effect.tryPromise({
          try: () =>
            worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { blocks: true }),
          catch: (error) => lastError ?? describe(error)
        }).pipe(
          Effect.ensuring(logOutput),
          // The layout rules read a two-column scan better than tesseract's own blocks.
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
                      size,
                      confidence: word.confidence
                    }))
                })
              )
            )
          )
        )
    }
  })

/** Words of at least this many letters, read with at least this confidence, can be words of a language. */
const minWordLetters = 3
const minWordConfidence = 70
const vowel = /[aeiouyàâäéèêëîïôöùûüÿæœåøáíóúãõıāēīōū]/iu
const tripled = /(\p{L})\1\1/u

/** A word that looks like one of a language: letters only, a vowel in Latin script, no letter tripled. */
const isWordLike = (word: Word): boolean => {
  const text = word.text.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, "")
  if (word.confidence < minWordConfidence || [...text].length < minWordLetters) return false
  if (!/^\p{L}+(?:['’-]\p{L}+)*$/u.test(text) || tripled.test(text)) return false
  return !/^\p{Script=Latin}+$/u.test(text.replace(/['’-]/g, "")) || vowel.test(text)
}

/** Fewer word-like words than this (or a smaller share when few) is artwork or specks, not text around a picture. */
const minWordLikeWords = 5
const minWordLikeShare = 0.4
const enoughWordLikeWords = 20

/** Whether an OCR reading of an image-only page is noise: too few confident words that look like words. */
export const isNoise = (words: ReadonlyArray<Word>): boolean => {
  const wordLike = words.filter(isWordLike).length
  return wordLike < minWordLikeWords ||
    (wordLike < enoughWordLikeWords && wordLike < words.length * minWordLikeShare)
}
