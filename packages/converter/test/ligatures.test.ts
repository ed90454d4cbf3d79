import { assert, describe, it } from "@effect/vitest"
import type { PageText } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { misreadLigatures } from "../src/internal/layout/text.js"
import { item } from "./support/textItems.js"

const paragraphs = (texts: ReadonlyArray<string>): Array<string> => {
  const page: PageText = {
    page: 1,
    width: 600,
    height: 800,
    items: texts.map((text, i) => item(text, 50, 100 + i * 12)),
    figures: []
  }
  return Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Paragraph" ? [block.text] : [])
}

describe("ligatures Word's ToUnicode names as other letters", () => {
  it("reads them as their letters inside a word", () => {
    assert.strictEqual(
      misreadLigatures("HarmaƩan selecƟon seƫng aŌer MicrosoŌ hƩp"),
      "Harmattan selection setting after Microsoft http"
    )
  })

  it("keeps the letters where they stand for themselves", () => {
    assert.strictEqual(misreadLigatures("Ōsaka TŌKYŌ Ʃ Ɵ ƫ"), "Ōsaka TŌKYŌ Ʃ Ɵ ƫ")
  })

  it("gives the words back in a paragraph", () => {
    assert.deepStrictEqual(paragraphs(["The font would be set to HarmaƩan in the applicaƟon."]), [
      "The font would be set to Harmattan in the application."
    ])
  })
})
