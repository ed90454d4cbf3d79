import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import * as Engine from "../src/internal/engine.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "./support/engineOptions.js"
import { bodyText, furniturePage } from "./support/furniturePages.js"
import { item } from "./support/textItems.js"

const options = engineOptions()

const convert = (name: string) =>
  Effect.map(
    Engine.readDocument(
      readFileSync(new URL(`../../../corpus/fidelity/dev/${name}`, import.meta.url)),
      options,
      "markdown"
    ),
    (read) => Markdown.render(read.document)
  )

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
      return furniturePage(i + 1, [item(head, 200, 30)], [item(String(i + 1), 295, 780)])
    })
    const out = bodyText(pages)
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
      return furniturePage(i + 1, head, [])
    })
    const out = bodyText(pages)
    for (const title of titles) assert.notInclude(out, title)
    assert.include(out, "Body text of page 15")
  })

  it("on two pages, numbered titles out of step with the pages are kept; a head in step with them goes", () => {
    const titles = bodyText([
      furniturePage(1, [item("Example 1:", 50, 30)], []),
      furniturePage(2, [item("Example 3:", 50, 30)], [])
    ])
    assert.include(titles, "Example 1:")
    assert.include(titles, "Example 3:")
    const heads = bodyText([
      furniturePage(1, [item("Report 2021, sheet 1", 50, 30)], []),
      furniturePage(2, [item("Report 2021, sheet 2", 50, 30)], [])
    ])
    assert.notInclude(heads, "Report")
  })

  it("a running head's half on alternate pages goes with the half beside it", () => {
    const pages = Array.from({ length: 6 }, (_, i) =>
      furniturePage(
        i + 1,
        i === 0 ? [] : i % 2 === 0
          ? [item("The Name of the Title Is Hope", 50, 60, 7), item("Conference acronym, June 2018", 380, 60, 7)]
          : [item("Conference acronym, June 2018", 50, 60, 7), item("Trovato et al.", 500, 60, 7)],
        []
      ))
    const out = bodyText(pages)
    assert.notInclude(out, "The Name of the Title Is Hope")
    assert.notInclude(out, "Trovato")
  })

  it("a running head's two halves, swapped on facing pages, go though the article has two pages of them", () => {
    const halves = [item("CONTROL EQUALS CHAOS", 54, 54, 9), item("Chang, Connors", 480, 54, 10)]
    const pages = [1, 2, 3].map((n) =>
      furniturePage(
        n,
        n === 1
          ? []
          : n === 2
          ? halves
          : [item("Chang, Connors", 54, 54, 10), item("CONTROL EQUALS CHAOS", 446, 54, 9)],
        []
      )
    )
    const out = bodyText(pages)
    assert.notInclude(out, "Chang, Connors")
    assert.notInclude(out, "CONTROL EQUALS CHAOS")
    assert.include(out, "Body text of page 3")
    // Halves that are the body's (close above the text) stay.
    const close = [1, 2, 3, 4].map((n) =>
      furniturePage(
        n,
        n < 3
          ? []
          : [item("Left cell", 54, 60), item("Right cell", 400, 60), item("The first row of the table", 54, 72)],
        []
      )
    )
    assert.include(bodyText(close), "Left cell")
  })

  it("a browser's print header and footer go: date, title, URL and page counter", () => {
    const pages = [1, 2].map((n) =>
      furniturePage(
        n,
        [item("11/26/25, 5:43 PM", 20, 20, 8), item("Release notes - Example", 250, 20, 8)],
        [item("https://example.org/notes/release.html", 20, 785, 8), item(`${n}/2`, 560, 785, 8)]
      )
    )
    const out = bodyText(pages)
    for (const gone of ["11/26/25", "Release notes - Example", "https://example.org", "1/2", "2/2"]) {
      assert.notInclude(out, gone)
    }
    const single = bodyText([furniturePage(
      1,
      [item("26/11/2025 17:43", 20, 20, 8)],
      [item("file:///home/me/page.html", 20, 785, 8), item("1 sur 1", 560, 785, 8)]
    )])
    assert.notInclude(single, "26/11/2025")
    assert.notInclude(single, "file:///")
    assert.notInclude(single, "1 sur 1")
  })

  it("a date at the top of a letter without a page counter is the letter's", () => {
    const out = bodyText([furniturePage(1, [item("26/11/2025", 450, 30)], [])])
    assert.include(out, "26/11/2025")
  })

  it("a folio above the bottom band goes when it runs with the page numbers; a body line ending in a number stays", () => {
    // LaTeX's folio at 89% of the page height, below the last body line.
    const pages = Array.from(
      { length: 6 },
      (_, i) =>
        furniturePage(i + 1, [], [
          item("The last line of the body mentions chapter 4", 50, 600),
          item(String(i + 3), 295, 712)
        ])
    )
    const out = bodyText(pages)
    assert.notMatch(out, /^\d+$/m)
    assert.notMatch(out, /chapter 4 \d/)
    assert.include(out, "mentions chapter 4")
    // Numbers that do not run with the pages are not folios.
    const counts = bodyText(
      Array.from({ length: 6 }, (_, i) => furniturePage(i + 1, [], [item(String(7 * (i % 2) + 2), 295, 712)]))
    )
    assert.match(counts, /^2$/m)
    assert.match(counts, /^9$/m)
  })

  it("a folio on one line with the chapter's title goes, and a running head beside the folio with it", () => {
    const titles = ["Overview", "Installing the Package", "Using It", "Configuration Files", "Frequently Asked"]
    const pages = Array.from({ length: 10 }, (_, i) => {
      const n = i + 1
      const foot = n % 2 === 0
        ? [item(`${n} Chapter ${Math.ceil(n / 2)}. ${titles[Math.floor(i / 2)]}`, 50, 780)]
        : [item(`${Math.ceil(n / 2)}.${n}. Section ${titles[Math.floor(i / 2)]}`, 50, 780), item(String(n), 540, 780)]
      return furniturePage(n, [], foot)
    })
    const out = bodyText(pages)
    for (const title of titles) assert.notInclude(out, title)
    assert.include(out, "Body text of page 10")
  })

  it("a chapter's number set large at the top of a page is no folio, though it is the page's number", () => {
    // A Word chapter opening: "1" and its title in 28 points on the page whose folio, at the foot, is 1 too;
    // the title stands just under the top band, where a running head beside a folio may stand.
    const pages = Array.from({ length: 6 }, (_, i) => {
      const top = i === 0 ? [item("1", 50, 100, 28), item("Introduction", 110, 100, 28)] : []
      return furniturePage(i + 1, top, [item(String(i + 1), 295, 780)])
    })
    const out = bodyText(pages)
    assert.include(out, "Introduction")
    assert.match(out, /^# 1 Introduction$/m)
    assert.notMatch(out, /^\d+$/m)
  })

  it("folios in Persian digits go, with the running head beside them a little below the band", () => {
    const digits = "۰۱۲۳۴۵۶۷۸۹"
    const persian = (n: number) => [...String(n)].map((d) => digits[Number(d)]).join("")
    const titles = ["Things to know", "Typesetting text", "Mathematics", "Specialities", "Graphics"]
    // The heads stand at 12% of the page's height, outside the 10% band of a page's furniture.
    const pages = Array.from(
      { length: 10 },
      (_, i) => furniturePage(i + 1, [item(titles[Math.floor(i / 2)]!, 140, 96), item(persian(i + 5), 520, 96)], [])
    )
    const out = bodyText(pages)
    for (const title of titles) assert.notInclude(out, title)
    for (let n = 5; n < 15; n++) assert.notInclude(out, persian(n))
    assert.include(out, "Body text of page 10")
  })

  it("the first page's foot that runs with the other pages' heads goes, though it stands above the bottom band", () => {
    const pages = Array.from({ length: 6 }, (_, i) =>
      i === 0
        ? furniturePage(1, [], [item("USING GROFF AND -ME 1", 50, 716)])
        : furniturePage(i + 1, [item(`USING GROFF AND -ME ${i + 1}`, 50, 30)], []))
    const out = bodyText(pages)
    assert.notInclude(out, "USING GROFF")
    assert.include(out, "Body text of page 1")
  })

  it("a running head set at the foot of a few pages goes, as it goes from the heads of the others", () => {
    // sendmail's guide: its head at the top of each page, at the foot of a section's first page.
    const head = (n: number) => n % 2 === 0 ? `SMM:08-${n} Operation Guide` : `Operation Guide SMM:08-${n}`
    const pages = Array.from({ length: 12 }, (_, i) =>
      i === 0 || i === 7
        ? furniturePage(i + 1, [], [item(head(i + 1), 50, 770)])
        : furniturePage(i + 1, [item(head(i + 1), 50, 30)], []))
    const out = bodyText(pages)
    assert.notInclude(out, "Operation Guide")
    assert.include(out, "Body text of page 8")
  })

  it("a foot led by \"Page N\" on facing pages goes with the folios it runs with", () => {
    // f2c's man page: "May 12, 1996 ... Page 24", then "Page 25 ... May 12, 1996" on the facing page.
    const pages = Array.from({ length: 8 }, (_, i) => {
      const n = i + 1
      const foot = n < 6 ? `${n}` : n % 2 === 0 ? `May 12, 1996 Page ${n}` : `Page ${n} May 12, 1996`
      return furniturePage(n, [], [item(foot, 50, 780)])
    })
    const out = bodyText(pages)
    assert.notInclude(out, "May 12")
    assert.include(out, "Body text of page 7")
  })

  it("running feet ending in a roman folio in step with the front matter's pages go", () => {
    const feet = ["Table of contents i", "Table of contents ii", "Getting Started iii", "Getting Started iv"]
    const pages = Array.from({ length: 10 }, (_, i) =>
      // LaTeX's foot stands above the bottom tenth (at 86% of the page's height here).
      furniturePage(i + 1, [], [item(i < 4 ? feet[i]! : `Chapter ${i} text ${i - 3}`, 50, 690)]))
    const out = bodyText(pages)
    assert.notInclude(out, "Getting Started")
    assert.notInclude(out, "Table of contents")
    assert.include(out, "Body text of page 4")
  })

  it("a head naming its section on one or two pages goes when other heads stand at its spot on three pages", () => {
    // A Word header at the right margin: the section's title, whatever its length.
    const titles = ["", "Introduction", "Supported Characters", "Supported Characters"]
      .concat(["Licence", "Licence", "Licence", "Sample Text"])
    const right = (text: string) => item(text, 550 - text.length * 5, 30)
    const pages = titles.map((title, i) => furniturePage(i + 1, title === "" ? [] : [right(title)], []))
    const out = bodyText(pages)
    for (const title of titles.slice(1)) assert.notInclude(out, title)
    assert.include(out, "Body text of page 8")
    // Titles at a spot no head holds three times stay.
    const few = bodyText(
      titles.slice(0, 6).map((title, i) => furniturePage(i + 1, title === "" ? [] : [right(title)], []))
    )
    assert.include(few, "Supported Characters")
  })

  it("a listing's note at a page break (\"(continues on next page)\") is not text", () => {
    const pages = [1, 2].map((n) =>
      furniturePage(n, [item(n === 2 ? "(continued from previous page)" : "Top", 400, 100)], [
        item(n === 1 ? "(continues on next page)" : "End", 400, 500)
      ])
    )
    const out = bodyText(pages)
    assert.notInclude(out, "continue")
  })

  it.effect(
    "LaTeX's folios above the bottom band and Sphinx's folio-and-title feet leave the text",
    () =>
      Effect.gen(function*() {
        const usrguide = yield* convert("latex-usrguide.pdf")
        assert.notMatch(usrguide, /^\d+$/m)
        assert.include(usrguide, "using the command `\\NoCaseChange`.\n")
        const faq = yield* convert("pyx-faq.pdf")
        assert.notInclude(faq, "Chapter 1. General aspects of PyX")
        assert.include(faq, "into something your printer will understand.\n\nPDF files can be viewed")
      }),
    120_000
  )
})
