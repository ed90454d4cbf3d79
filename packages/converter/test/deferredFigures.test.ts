/**
 * A tagged page's artifact images (a slide's background, a running head's logo) are not made into
 * figures while the page is read: the tree's reading drops them; only a page read by its layout
 * makes them, as any other figure.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as Pdf from "../src/internal/pdf.js"
import { artifact, figureMcid } from "../src/internal/tagged/model.js"
import { readCorpus } from "./support/corpus.js"

// LibreOffice Writer, tagged: page 1 paints one image, marked as an artifact.
const tagged = readCorpus("fidelity/dev/canzeley-quickguide-tagged.pdf")

const firstPage = Effect.gen(function*() {
  const open = yield* Pdf.open(tagged, undefined)
  const page = Pdf.readPage(open, 1, { figures: true })
  if (Either.isLeft(page)) return yield* Effect.die(page.left)
  return { open, content: page.right }
})

describe("a tagged page's artifact images", () => {
  it.scoped("stand unmade in the page's figures while it is read: nothing is decoded or copied", () =>
    Effect.gen(function*() {
      const { content, open } = yield* firstPage
      assert.isAbove(content.deferred.length, 0)
      const deferred = new Set(content.deferred.map(({ placed }) => placed))
      for (const placed of deferred) {
        assert.include(content.figures, placed)
        assert.strictEqual(figureMcid(placed), artifact)
        assert.strictEqual(placed.figure.data.length, 0)
      }
      assert.strictEqual(open.figures.made.size, 0)
    }))

  it.scoped("are made in their place when asked (a page read by its layout), as its other figures are", () =>
    Effect.gen(function*() {
      const { content, open } = yield* firstPage
      const { content: made, failed } = yield* Pdf.makeDeferred(open, 1, content)
      assert.isUndefined(failed)
      assert.deepStrictEqual(made.deferred, [])
      assert.strictEqual(made.figures.length, content.figures.length)
      for (const placed of made.figures) {
        assert.isAbove(placed.figure.data.length, 0)
        assert.isAbove(placed.figure.width, 0)
        const magic = [...placed.figure.data.subarray(0, 2)]
        assert.deepInclude([[0x89, 0x50], [0xff, 0xd8]], magic)
      }
      assert.isAbove(open.figures.made.size, 0)
    }))
})
