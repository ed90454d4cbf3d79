import { Converter, ConverterLive } from "@pdf-transform/converter"
import { Console, Effect } from "effect"
import { readFileSync } from "node:fs"

const pdf = readFileSync(new URL("../../pdfs/tracemonkey.pdf", import.meta.url))

const program = Effect.gen(function*() {
  const converter = yield* Converter.Converter
  const markdown = yield* converter.toMarkdown(pdf, {
    onProgress: ({ pagesDone, pagesTotal }) => Effect.logDebug(`${pagesDone}/${pagesTotal} pages`)
  })
  const epub = yield* converter.toEpub(pdf, { filename: "tracemonkey" })
  yield* Console.log(
    `${markdown.pages} pages: ${markdown.output.length} characters of Markdown, ${epub.output.length} bytes of EPUB`
  )
})

// A pool of worker threads, one per core (the default live layer); `ConverterLive.layerInProcess()`
// runs the same engine on the caller's thread (scripts, tests).
Effect.runPromise(program.pipe(Effect.provide(ConverterLive.layer())))
