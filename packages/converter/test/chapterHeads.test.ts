import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

/** A page whose first baseline (y 44) is `top`, over body text from y `from` on. */
const page = (number: number, top: ReadonlyArray<TextItem>, from = 82): PageText => ({
  page: number,
  width: 600,
  height: 800,
  items: [
    ...top,
    ...Array.from(
      { length: 6 },
      (_, i) => item(`Line ${i + 1} of page ${number} goes on here in a sentence long enough.`, 60, from + i * 12)
    )
  ],
  figures: []
})

const removed = (
  pages: ReadonlyArray<PageText>
): Array<string> => [...Layout.layout({ pages: [...pages], outline: [], title: undefined, filename: "t" }).removedLines]

describe("a chapter's running head on too few pages to repeat", () => {
  const chapter = (number: number, text: string) => page(number, [item(text, 60, 44)])

  it("goes where other pages' first baselines stand apart at its place, led by a numbered title", () => {
    const pages = [
      page(1, []),
      chapter(2, "CHAPTER 3. A BASIC PLUGIN"),
      page(3, []),
      chapter(4, "CHAPTER 4. THE INTERFACE . . ."),
      page(5, [item("CHAPTER 6. . . .", 60, 44), item("6.3. FUNCTION VOID INIT()", 380, 44)]),
      page(6, [])
    ]
    assert.deepStrictEqual(removed(pages).sort(), [
      "6.3. FUNCTION VOID INIT()",
      "CHAPTER 3. A BASIC PLUGIN",
      "CHAPTER 4. THE INTERFACE . . .",
      "CHAPTER 6. . . ."
    ])
  })

  it("goes when led by a section number, as a LaTeX head \"4 Notes\" on a section's two pages", () => {
    const pages = [page(1, []), chapter(2, "3 Usage"), chapter(3, "4 Notes"), chapter(4, "4 Notes"), page(5, [])]
    assert.deepStrictEqual(removed(pages), ["3 Usage", "4 Notes", "4 Notes"])
    // A numbered line that starts a sentence in lower case is no section's head.
    const items = [page(1, []), chapter(2, "7 items of the list"), chapter(3, "2 more"), chapter(4, "9 others")]
    assert.deepStrictEqual(removed(items), [])
  })

  it("stays when fewer pages stand apart there, when it has no numbered lead, or when it is set large", () => {
    const two = [page(1, []), chapter(2, "CHAPTER 3. A BASIC PLUGIN"), chapter(3, "CHAPTER 4. THE INTERFACE")]
    assert.deepStrictEqual(removed([...two, page(4, [])]), [])
    const sentences = ["first", "second", "third"].map((word, i) =>
      chapter(i + 2, `Here we show the ${word} page's text, set apart.`)
    )
    assert.deepStrictEqual(removed([page(1, []), ...sentences]), [])
    // Chapter titles (enough pages that the lead "Chapter #" is no head by repetition).
    const large = ["Setup", "Usage", "Limits"].map((title, i) =>
      page(i + 2, [item(`Chapter ${i + 2} ${title}`, 60, 44, 20)], 100)
    )
    const rest = Array.from({ length: 9 }, (_, i) => page(i + 5, []))
    assert.deepStrictEqual(removed([page(1, []), ...large, ...rest]), [])
  })
})
