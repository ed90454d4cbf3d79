import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"

const item = (text: string, x: number, y: number, size = 10): TextItem => ({
  text,
  x,
  y,
  width: text.length * size * 0.5,
  size,
  rtl: false,
  style: 0
})

/** A page of body text with furniture lines at the top (y 30) and the foot (y 780) of an 800-point page. */
const page = (number: number, top: ReadonlyArray<TextItem>, bottom: ReadonlyArray<TextItem>): PageText => ({
  page: number,
  width: 600,
  height: 800,
  items: [
    ...top,
    item(`Body text of page ${number} goes on here in a sentence that is long enough.`, 50, 300),
    item("More of it follows on the next line of the body of this page, and ends.", 50, 312),
    ...bottom
  ],
  figures: []
})

const text = (pages: ReadonlyArray<PageText>): string =>
  Layout.layoutDocument({ pages: [...pages], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Paragraph" ? [block.text] : block._tag === "Heading" ? [`# ${block.text}`] : []).join("\n")

describe("page furniture", () => {
  it("a chapter's running head is dropped from the pages it heads, though it is on fewer than 30% of them", () => {
    const pages = Array.from({ length: 20 }, (_, i) => {
      const alone = ["apples", "pears", "plums", "figs", "dates", "limes", "kiwis", "melons", "grapes", "lemons"]
      const others = ["quinces", "cherries", "peaches", "apricots"]
      const head = i < 4
        ? "Chapter 1: Getting Started"
        : i < 6
        ? "A Short Interlude"
        : `On ${[...alone, ...others][i - 6]}`
      return page(i + 1, [item(head, 200, 30)], [item(String(i + 1), 295, 780)])
    })
    const out = text(pages)
    assert.notInclude(out, "Getting Started")
    // Two pages are not a pattern: a title on two pages may be the body's.
    assert.include(out, "A Short Interlude")
    assert.include(out, "On apples")
    assert.notMatch(out, /^\d+$/m)
    assert.include(out, "Body text of page 20")
  })

  it("running heads naming each chapter in turn go, though each title heads two pages only", () => {
    const titles = ["Introduction", "Invoking Stow", "Ignore Lists", "Installing Packages", "Deleting Packages"]
    const pages = Array.from({ length: 15 }, (_, i) => {
      const head = i % 3 === 0 ? [] : [item(`Chapter ${Math.floor(i / 3) + 1}: ${titles[Math.floor(i / 3)]}`, 40, 30)]
      return page(i + 1, head, [])
    })
    const out = text(pages)
    for (const title of titles) assert.notInclude(out, title)
    assert.include(out, "Body text of page 15")
  })

  it("a running head's half on alternate pages goes with the half beside it", () => {
    const pages = Array.from({ length: 6 }, (_, i) =>
      page(
        i + 1,
        i === 0 ? [] : i % 2 === 0
          ? [item("The Name of the Title Is Hope", 50, 60, 7), item("Conference acronym, June 2018", 380, 60, 7)]
          : [item("Conference acronym, June 2018", 50, 60, 7), item("Trovato et al.", 500, 60, 7)],
        []
      ))
    const out = text(pages)
    assert.notInclude(out, "The Name of the Title Is Hope")
    assert.notInclude(out, "Trovato")
  })

  it("a browser's print header and footer go: date, title, URL and page counter", () => {
    const pages = [1, 2].map((n) =>
      page(
        n,
        [item("11/26/25, 5:43 PM", 20, 20, 8), item("Release notes - Example", 250, 20, 8)],
        [item("https://example.org/notes/release.html", 20, 785, 8), item(`${n}/2`, 560, 785, 8)]
      )
    )
    const out = text(pages)
    for (const gone of ["11/26/25", "Release notes - Example", "https://example.org", "1/2", "2/2"]) {
      assert.notInclude(out, gone)
    }
    const single = text([page(
      1,
      [item("26/11/2025 17:43", 20, 20, 8)],
      [item("file:///home/me/page.html", 20, 785, 8), item("1 sur 1", 560, 785, 8)]
    )])
    assert.notInclude(single, "26/11/2025")
    assert.notInclude(single, "file:///")
    assert.notInclude(single, "1 sur 1")
  })

  it("a date at the top of a letter without a page counter is the letter's", () => {
    const out = text([page(1, [item("26/11/2025", 450, 30)], [])])
    assert.include(out, "26/11/2025")
  })
})
