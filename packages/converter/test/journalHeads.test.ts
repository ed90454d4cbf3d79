import { assert, describe, it } from "@effect/vitest"
import { bodyText, furniturePage } from "./support/furniturePages.js"
import { item } from "./support/textItems.js"

describe("a journal's first-page head", () => {
  it("starting with the journal line found at every page's foot, is furniture with what follows it", () => {
    const journal = (n: number) => [item("JOURNAL 000, 1-5 (2020)", 50, 780)].filter(() => n > 1)
    const pages = [1, 2, 3, 4, 5].map((n) =>
      furniturePage(
        n,
        n === 1 ? [item("JOURNAL 000, 1-5 (2020) Preprint 27 June 2020 Compiled with the class", 50, 30)] : [],
        journal(n)
      )
    )
    const read = bodyText(pages)
    assert.notInclude(read, "Preprint 27 June")
    assert.notInclude(read, "JOURNAL 000")
    assert.include(read, "Body text of page 1")
  })

  it("a first line that only starts like a foot line seen on one page stays", () => {
    const pages = [1, 2, 3, 4, 5].map((n) =>
      furniturePage(n, n === 1 ? [item("JOURNAL 000 Preprint 27 June 2020", 50, 30)] : [], [])
    )
    assert.include(bodyText(pages), "Preprint 27 June")
  })
})
