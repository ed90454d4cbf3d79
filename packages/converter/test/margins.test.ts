import { assert, describe, it } from "@effect/vitest"
import type { TextItem } from "../src/internal/layout.js"
import { item, orderedTexts } from "./support/textItems.js"

/** Justified lines from x 100 to 460, the last one of the paragraph shorter. */
const paragraph = (words: ReadonlyArray<string>, y: number): Array<TextItem> =>
  words.map((text, i) => item(text, 100, y + i * 12, 10, i === words.length - 1 ? 200 : 360))

describe("margin notes", () => {
  it("a note in the right margin is read after the paragraph it stands beside, not inside its lines", () => {
    const lines = orderedTexts([
      ...paragraph(["first line of the paragraph", "second line of it", "third line", "the end."], 100),
      ...paragraph(["another paragraph here", "and its second line", "its third", "its fourth", "its end."], 160),
      // Past the justified edge, a note's first word on the second line's baseline, nine points apart.
      item("New", 469, 112, 9),
      item("feature", 469, 123, 9)
    ])
    assert.deepStrictEqual(lines, [
      "first line of the paragraph",
      "second line of it",
      "third line",
      "the end.",
      "New",
      "feature",
      "another paragraph here",
      "and its second line",
      "its third",
      "its fourth",
      "its end."
    ])
  })

  it("a second column of running text is no margin note", () => {
    const left = paragraph(["l1", "l2", "l3", "l4", "l5", "l6"], 100).map((it) => ({ ...it, width: 200 }))
    const right = [0, 1, 2, 3, 4, 5].map((i) => item(`r${i}`, 320, 100 + i * 12, 10, 150 + i * 5))
    const lines = orderedTexts([...left, ...right])
    assert.deepStrictEqual(lines, ["l1", "l2", "l3", "l4", "l5", "l6", "r0", "r1", "r2", "r3", "r4", "r5"])
  })
})
