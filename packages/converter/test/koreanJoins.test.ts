import { assert, describe, it } from "@effect/vitest"
import { collectWords } from "../src/internal/layout/hyphens.js"
import { joinLines } from "../src/internal/layout/text.js"

describe("Korean line joins", () => {
  const words = collectWords([
    "옵션을 지정해서 쓸 수 있다. 이 옵션을 주면",
    "패키지를 로드한다. 모두 같다 엔진",
    "진 사용 모두 투명하게"
  ])

  it("a Hangul word at a line's edge is not taken for a whole word", () => {
    assert.isTrue(words.words.has("지정해서"))
    assert.isFalse(words.words.has("엔진"))
    assert.isFalse(words.words.has("진"))
    assert.isFalse(words.words.has("투명하게"))
  })

  it("two words keep their space across the line end; a word cut between syllables is joined", () => {
    // The head ends in a particle: a whole word.
    assert.strictEqual(
      joinLines("사용자가 지정한 패키지에", "모두 전달된다", words),
      "사용자가 지정한 패키지에 모두 전달된다"
    )
    // The rest is a word of the document.
    assert.strictEqual(joinLines("다른 폰트를 바로", "모두 쓴다", words), "다른 폰트를 바로 모두 쓴다")
    // The rest is a particle: it goes on the word before.
    assert.strictEqual(joinLines("Live용", "으로 수정했다", words), "Live용으로 수정했다")
    // Nothing says these are words: cut between syllables, as before.
    assert.strictEqual(joinLines("텍 엔", "진이 가동되고", words), "텍 엔진이 가동되고")
    // The joined word is written whole elsewhere.
    assert.strictEqual(joinLines("옵션을 지정", "해서 쓴다", words), "옵션을 지정해서 쓴다")
    // Japanese and Chinese set no spaces: unchanged.
    assert.strictEqual(joinLines("日本語の", "文章です", words), "日本語の文章です")
  })
})
