import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { TextItem } from "../src/internal/layout.js"
import { node, page, read, run, texts } from "./support/taggedPages.js"

const acronyms: ReadonlyArray<readonly [string, string]> = [
  ["API", "Application Programming Interface"],
  ["CCS", "Coordinate Conversion Service"],
  ["DLL", "Dynamic Linked Library"],
  ["EGM", "Earth Gravity Model"]
]

describe("glossaries on a tagged page", () => {
  const rows = acronyms.map(([term, description]) => [term, description] as const)
  /** Each row a paragraph of two runs, the description at a tab stop (x 160). */
  const glossaryPage = () => {
    const tree = [node("Document", [node("P", [0]), ...rows.map((_, i) => node("P", [i + 1]))])]
    return page(1, tree, [
      [run("The following list defines the acronyms used.", 60, 80), 0],
      ...rows.flatMap(([term, description], i): Array<readonly [TextItem, number]> => [
        [run(term, 60, 100 + 18 * i), i + 1],
        [run(description, 160, 100 + 18 * i), i + 1]
      ])
    ])
  }

  it.effect("rows tagged as paragraphs of a term and a description a tab apart are one table in their place", () =>
    Effect.sync(() => {
      const { blocks } = read(glossaryPage())
      assert.deepStrictEqual(texts(blocks), ["The following list defines the acronyms used.", "Table"])
      const table = blocks[1]!
      assert.deepStrictEqual(table._tag === "Table" ? table.rows : [], rows.map(([t, d]) => [t, d]))
    }))

  it.effect("descriptions not at one x are paragraphs", () =>
    Effect.sync(() => {
      const { blocks } = read(page(
        1,
        [node("Document", rows.map((_, i) => node("P", [i])))],
        rows.flatMap((
          [term, description],
          i
        ): Array<readonly [TextItem, number]> => [[run(term, 60, 100 + 18 * i), i], [
          run(description, 160 + 30 * i, 100 + 18 * i),
          i
        ]])
      ))
      assert.notInclude(texts(blocks), "Table")
    }))
})
