import { assert, describe, it } from "@effect/vitest"
import { headingTitle, matchOutline, outlinedTitle } from "../src/internal/layout/headings.js"
import type { Line } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"

const line = (text: string, y: number, note?: string): Line => ({
  text: note === undefined ? text : `${text}${note}`,
  x0: 50,
  x1: 300,
  y,
  size: 9,
  rtl: false,
  ...(note === undefined
    ? {}
    : { marks: [{ start: text.length, end: text.length + note.length, style: Style.footnote }] })
})

describe("outlined headings as the page sets them", () => {
  it("an appendix word in capitals, or in French, goes before the letter the bookmark starts with", () => {
    assert.strictEqual(
      headingTitle("APPENDIX B. MULTILINGUAL SUPPORT", "B Multilingual Support"),
      "APPENDIX B. MULTILINGUAL SUPPORT"
    )
    assert.strictEqual(
      headingTitle("ANNEXE C. DISCOURS PRÉLIMINAIRE DE FOURIER", "C Discours Préliminaire de Fourier"),
      "ANNEXE C. DISCOURS PRÉLIMINAIRE DE FOURIER"
    )
  })

  it("a label word's number that a colon ends is the page's, before the bookmark's title", () => {
    assert.strictEqual(
      headingTitle("Appendix B: Language Support", "B Language Support"),
      "Appendix B: Language Support"
    )
    assert.strictEqual(headingTitle("Chapter 3: Installing", "3 Installing"), "Chapter 3: Installing")
    assert.strictEqual(headingTitle("Chapter 4 Files", "Files"), "Chapter 4 Files")
    // A word that is no label, or no number after one, is the title's own.
    assert.strictEqual(headingTitle("Part of speech", "Part of speech"), "Part of speech")
    assert.strictEqual(headingTitle("Version 2: Notes", "Notes"), "Notes")
  })

  it("a page's number and the bookmark's are not both kept", () => {
    assert.strictEqual(headingTitle("6. MORE ON MATH: u⃗ · ω⃗ = 0", "6 More on math: u·ω=0"), "6. More on math: u·ω=0")
  })

  it("a heading line ending in a note reference matches its bookmark and keeps the reference", () => {
    const heading = line("5. REFERENCE FORMATTING WITH asmeconf.bst", 100, "3")
    const page = {
      page: 3,
      height: 800,
      items: [heading, line("The style follows the reference formats of ASME.", 120)].map((l) => ({
        _tag: "Line" as const,
        line: l
      }))
    }
    const match = matchOutline([page], [{
      title: "5 Reference Formatting with asmeconf.bst",
      level: 1,
      page: 3,
      top: 90
    }])
    assert.deepStrictEqual([...match.lines.keys()], [heading])
    assert.deepStrictEqual(outlinedTitle(heading, "5 Reference Formatting with asmeconf.bst"), {
      text: "5. REFERENCE FORMATTING WITH asmeconf.bst3",
      marks: [{ start: 41, end: 42, style: Style.footnote }]
    })
  })

  it("a bookmark cut short inside a title's second line is the page's two lines whole", () => {
    const first = { ...line("3.3 When do I need to use the host debugger for debugging a", 100), size: 14 }
    const second = { ...line("simulator?", 116), size: 14 }
    const body = line("While a simulator is being debugged, its execution may be unreliable.", 140)
    const page = {
      page: 2,
      height: 800,
      items: [first, second, body].map((l) => ({ _tag: "Line" as const, line: l }))
    }
    const outline = (title: string) => [{ title, level: 2, page: 2, top: 700 }]
    const match = matchOutline([page], outline("When do I need to use the host debugger for debugging a simu"))
    assert.deepStrictEqual([...match.lines.keys()], [first, second])
    const title = match.lines.get(first)!.title
    assert.strictEqual(
      outlinedTitle(first, title).text,
      "3.3 When do I need to use the host debugger for debugging a simulator?"
    )
    // A bookmark that ends with the line does not take the next one in, nor one in another size.
    const whole = matchOutline([page], outline("When do I need to use the host debugger for debugging a"))
    assert.deepStrictEqual([...whole.lines.keys()], [first])
    const smaller = { ...page, items: [first, { ...second, size: 9 }].map((l) => ({ _tag: "Line" as const, line: l })) }
    const other = matchOutline([smaller], outline("When do I need to use the host debugger for debugging a simu"))
    assert.deepStrictEqual([...other.lines.keys()], [first])
  })
})
