import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
import type { TextItem } from "../src/internal/layout.js"
import { pageBlocks } from "./support/textItems.js"

const roman = (text: string, x: number, y: number): TextItem => ({
  text,
  x,
  y,
  width: text.length * 5,
  size: 10,
  rtl: false,
  style: 0
})

const codeTexts = (blocks: ReadonlyArray<Document.Block>): Array<string> =>
  blocks.flatMap((block) =>
    block._tag === "Code"
      ? [block.text]
      : block._tag === "List"
      ? block.items.flatMap((item) => (item.blocks ?? []).flatMap((inner) => inner._tag === "Code" ? [inner.text] : []))
      : []
  )

describe("console lines set in the text face", () => {
  it("a command at a prompt under an item that announces it is the item's listing", () => {
    const found = pageBlocks([
      roman("These are the steps that test the installation of the system.", 50, 100),
      roman("1. First check that the program runs:", 60, 118),
      roman("> tex --version", 75, 130),
      roman("TeX 3.14159265 (TeX Live 2021)", 75, 142),
      roman("2. Make a PostScript file from the DVI file:", 60, 154),
      roman("> dvips sample2e.dvi -o sample2e.ps", 75, 166),
      roman("3. Look at the result on the screen, as any viewer shows it.", 60, 178)
    ])
    assert.deepStrictEqual(codeTexts(found), ["> tex --version", "> dvips sample2e.dvi -o sample2e.ps"])
    const list = found.find((block): block is Document.List => block._tag === "List")
    assert.strictEqual(list?.items.length, 3)
  })

  it("a variable set alone under a colon is a listing", () => {
    const found = pageBlocks([
      roman("To add a directory of your own to a search path, set the variable:", 50, 100),
      roman("TEXINPUTS=.:/my/macro/dir:", 50, 112),
      roman("A colon at its end keeps the directories of the system in the path.", 50, 124)
    ])
    assert.deepStrictEqual(codeTexts(found), ["TEXINPUTS=.:/my/macro/dir:"])
  })

  it("a sentence after a quote sign or a dollar amount is no command", () => {
    const found = pageBlocks([
      roman("The answer he wrote back to the list was short:", 50, 100),
      roman("> the build fails on every machine we have here", 60, 112),
      roman("and the cost came to", 50, 124),
      roman("$ 40 for each of the machines, with VAT=20 added.", 50, 136)
    ])
    assert.deepStrictEqual(codeTexts(found), [])
  })
})
