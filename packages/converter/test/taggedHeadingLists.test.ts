import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Style } from "../src/internal/layout/model.js"
import { node, page, read, run, texts } from "./support/taggedPages.js"

const bold = Style.strong
const boldItalic = Style.strong | Style.emphasis

describe("tagged reading: numbered headings tagged as a list", () => {
  it.effect("a list whose items are bold titles larger than the text is headings, levels by size", () =>
    Effect.sync(() => {
      // PDFMaker's Word headings: L > LI > LBody, the first paragraph inside the LBody, a sub-list for 1.1.
      const tree = [node("Sect", [
        node("L", [
          node("LI", [node("LBody", [0])]),
          node("L", [node("LI", [node("LBody", [1, node("P", [2])])])])
        ]),
        node("P", [3]),
        node("L", [node("LI", [node("LBody", [4])]), node("LI", [node("LBody", [5])])])
      ])]
      const { blocks } = read(page(1, tree, [
        [run("1 General Questions", 60, 100, 16, bold), 0],
        [run("1.1 What is it?", 60, 130, 14, boldItalic), 1],
        [run("It is a simulator of old computers.", 60, 160), 2],
        [run("It runs on most hosts.", 60, 180), 3],
        [run("- Symbolic assembly of memory.", 80, 200), 4],
        [run("- Breakpoints without limit.", 80, 214), 5]
      ]))
      assert.deepStrictEqual(texts(blocks), [
        "h1 1 General Questions",
        "h2 1.1 What is it?",
        "It is a simulator of old computers.",
        "It runs on most hosts.",
        "List"
      ])
    }))

  it.effect("a list of bold items at the text's size stays a list, and so does one with a title among other items", () =>
    Effect.sync(() => {
      const tree = [node("Sect", [
        node("P", [0]),
        node("L", [node("LI", [node("LBody", [1])]), node("LI", [node("LBody", [2])])]),
        node("L", [
          node("LI", [node("LBody", [3])]),
          node("LI", [node("LBody", [4])]),
          node("LI", [node("LBody", [5])])
        ])
      ])]
      const { blocks } = read(page(1, tree, [
        [run("Some running text of the page, long enough to set its size.", 60, 100), 0],
        [run("1. Install the package.", 60, 130, 11, bold), 1],
        [run("2. Run the program.", 60, 144, 11, bold), 2],
        [run("Plain item one.", 60, 170), 3],
        [run("A Large Bold Item", 60, 184, 14, bold), 4],
        [run("Plain item three.", 60, 204), 5]
      ]))
      assert.deepStrictEqual(texts(blocks), [
        "Some running text of the page, long enough to set its size.",
        "List",
        "List"
      ])
    }))

  it.effect("a contents entry without a page number is a paragraph, however large and bold", () =>
    Effect.sync(() => {
      const tree = [node("Sect", [node("TOC", [node("TOCI", [0]), node("TOCI", [1])]), node("P", [2])])]
      const { blocks } = read(page(1, tree, [
        [run("1 GENERAL QUESTIONS", 60, 100, 14, bold), 0],
        [run("1.1 WHAT IS IT?", 60, 120, 14, bold), 1],
        [run("Running text of the body, set at the size of the text.", 60, 200), 2]
      ]))
      assert.deepStrictEqual(texts(blocks), [
        "1 GENERAL QUESTIONS",
        "1.1 WHAT IS IT?",
        "Running text of the body, set at the size of the text."
      ])
    }))
})
