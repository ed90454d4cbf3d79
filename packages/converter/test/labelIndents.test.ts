import { assert, describe, it } from "@effect/vitest"
import { item, pageBlocks } from "./support/textItems.js"

describe("numbered and lettered labels with their text at an indent well past them", () => {
  // An XSL-FO list: the label at the margin, its item's text 20 points in (1.4 em past "1." at 9 points).
  const step = (label: string, text: string, more: string, y: number) => [
    item(label, 72, y, 9, 7.5),
    item(text, 92, y, 9),
    item(more, 92, y + 11, 9)
  ]

  it("start the items, their text joined to them", () => {
    const blocks = pageBlocks([
      item("Building the jar takes these steps, in this order, each run in the", 72, 100, 9),
      item("directory the step names.", 72, 111, 9),
      ...step("1.", "If you don't already have Ant, download the latest stable", "binary version and extract it.", 130),
      ...step("2.", "Set the environmental variable JAVA_HOME to the base", "directory of your Java SDK.", 160),
      ...step("a.", "Remove the existing file from the library directory of", "the distribution first.", 190)
    ])
    const lists = blocks.flatMap((block) => block._tag === "List" ? [block] : [])
    assert.deepStrictEqual(lists.flatMap((list) => list.items.map((entry) => entry.text.slice(0, 20))), [
      "If you don't already",
      "Set the environmenta",
      "Remove the existing "
    ])
  })
})
