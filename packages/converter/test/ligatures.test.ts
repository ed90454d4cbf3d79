import { assert, describe, it } from "@effect/vitest"
import { misreadLigatures } from "../src/internal/layout/text.js"
import { paragraphs } from "./support/textItems.js"

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
