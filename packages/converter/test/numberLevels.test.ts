import { assert, describe, it } from "@effect/vitest"
import type * as Document from "../src/Document.js"
import { numberLevels } from "../src/internal/layout/numberLevels.js"

const heading = (level: number, text: string): Document.Block => ({ _tag: "Heading", level, text })
const paragraph = (text: string): Document.Block => ({ _tag: "Paragraph", text })

const levels = (blocks: ReadonlyArray<Document.Block>): Array<string> =>
  numberLevels(blocks).map((block) => block._tag === "Heading" ? `${block.level} ${block.text}` : block._tag)

describe("numbered headings' levels", () => {
  it("follow their numbers' depth where a deeper number was set at its parent's level", () => {
    const blocks = [
      heading(1, "1 Introduction"),
      heading(2, "1.1 Components"),
      heading(3, "1.1.1 Secure components"),
      heading(4, "1.1.1.1 Secure components API"),
      heading(3, "1.1.2 CST"),
      paragraph("There are several participants."),
      heading(1, "2 Installation"),
      heading(3, "2.1.1 Running the script"),
      heading(3, "2.1.1.1 Running the script in interactive mode"),
      heading(4, "2.1.1.2 Running the script in CLI mode"),
      heading(2, "Revision History")
    ]
    assert.deepStrictEqual(levels(blocks), [
      "1 1 Introduction",
      "2 1.1 Components",
      "3 1.1.1 Secure components",
      "4 1.1.1.1 Secure components API",
      "3 1.1.2 CST",
      "Paragraph",
      "1 2 Installation",
      "3 2.1.1 Running the script",
      "4 2.1.1.1 Running the script in interactive mode",
      "4 2.1.1.2 Running the script in CLI mode",
      "2 Revision History"
    ])
  })

  it("go one below the shallower number's where both depths were set alike", () => {
    const blocks = ["1 Scope", "1.1 Identification", "1.2 Overview", "2 Documents", "2.1 Standards", "2.2 Other"]
      .map((text) => heading(3, text))
    assert.deepStrictEqual(levels(blocks), [
      "3 1 Scope",
      "4 1.1 Identification",
      "4 1.2 Overview",
      "3 2 Documents",
      "4 2.1 Standards",
      "4 2.2 Other"
    ])
  })

  it("only go deeper: contents entries read as headings do not pull the body's numbered headings up", () => {
    const blocks = [
      ...["1 Basics", "2 Metafun", "3 Graphics"].map((text) => heading(1, text)),
      heading(5, "Introduction"),
      heading(5, "1 Basics"),
      heading(6, "1.1 Color models"),
      heading(6, "1.2 Using color"),
      heading(5, "2 Metafun"),
      heading(6, "2.1 Colors")
    ]
    assert.deepStrictEqual(levels(blocks).slice(3), [
      "5 Introduction",
      "5 1 Basics",
      "6 1.1 Color models",
      "6 1.2 Using color",
      "5 2 Metafun",
      "6 2.1 Colors"
    ])
  })

  it("stay as they were when few headings are numbered", () => {
    const blocks = [heading(2, "1 Scope"), heading(2, "1.1 Identification"), heading(3, "Notes")]
    assert.deepStrictEqual(levels(blocks), ["2 1 Scope", "2 1.1 Identification", "3 Notes"])
  })
})
