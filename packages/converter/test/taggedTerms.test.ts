import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Style } from "../src/internal/layout/model.js"
import { node, page, read, run } from "./support/taggedPages.js"

const code = (text: string, x: number, y: number) => run(text, x, y, 11, Style.code)

/** A browser's definition list: each term in the code face, its description set in 30 points under it. */
const definitions = (descriptionX: number) =>
  page(1, [
    node("Document", [
      node("P", [0]),
      node("NonStruct", [node("NonStruct", [1]), node("NonStruct", [node("P", [2])])]),
      node("NonStruct", [node("NonStruct", [3]), node("NonStruct", [node("P", [4])])])
    ])
  ], [
    [run("Some special sequences stand for sets of characters that are often useful.", 60, 80), 0],
    [code("\\d", 60, 100), 1],
    [run("Matches any decimal digit, as the class of the digits does.", descriptionX, 116), 2],
    [code("\\D", 60, 136), 3],
    [run("Matches any character that is not a decimal digit.", descriptionX, 152), 4]
  ])

describe("a tagged page's terms in the code face", () => {
  it.effect("a code line over a description set in under it is a definition's term", () =>
    Effect.sync(() => {
      const { blocks } = read(definitions(90))
      assert.deepStrictEqual(blocks.map((block) => block._tag), ["Paragraph", "Term", "Paragraph", "Term", "Paragraph"])
      assert.deepStrictEqual(blocks[1], { _tag: "Term", text: "\\d", marks: [{ start: 0, end: 2, style: Style.code }] })
    }))

  it.effect("a code line over text at its own margin stays a listing", () =>
    Effect.sync(() => {
      const { blocks } = read(definitions(60))
      assert.deepStrictEqual(blocks.map((block) => block._tag), ["Paragraph", "Code", "Paragraph", "Code", "Paragraph"])
    }))

  it.effect("a code line over a paragraph whose first line alone is indented stays a listing", () =>
    Effect.sync(() => {
      const { blocks } = read(page(1, [node("Document", [node("NonStruct", [0]), node("P", [1, 2])])], [
        [code("1 25544U 98067A 08289.55379628", 60, 100), 0],
        [run("The first line of the paragraph after the listing is indented as the", 90, 116), 1],
        [run("style of the document sets every paragraph's first line.", 60, 130), 2]
      ]))
      assert.deepStrictEqual(blocks.map((block) => block._tag), ["Code", "Paragraph"])
    }))
})
