import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import type { Box } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

/** The blocks of a 600 x 800 page of `items` on `panels`, page breaks left out. */
const blocks = (items: ReadonlyArray<TextItem>, panels: ReadonlyArray<Box>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [], panels }
  return Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks.filter((
    block
  ) => block._tag !== "PageBreak")
}

/** Word's shading: one box a paragraph, stacked with no gap, across the text column. */
const shading = (...spans: ReadonlyArray<readonly [number, number]>): Array<Box> =>
  spans.map(([y0, y1]) => ({ x0: 45, x1: 500, y0, y1 }))

const listing: Array<TextItem> = [
  item("Here is an example of a transform between two profiles, step by step.", 50, 80),
  item("int main(void)", 50, 110),
  item("{", 50, 122),
  item("cmsHPROFILE hInProfile, hOutProfile;", 60, 134),
  item("cmsHTRANSFORM hTransform;", 60, 146),
  item("hTransform = cmsCreateTransform(hInProfile,", 60, 170),
  item("TYPE_BGR_8,", 160, 182),
  item("INTENT_PERCEPTUAL, 0);", 160, 194),
  item("return 0;", 60, 218),
  item("}", 50, 230),
  item("This is slightly different from the sample of the older series of the library.", 50, 260)
]
const listingShade = shading([100, 138], [138, 150], [150, 199], [199, 235])

describe("listings on a shaded box in a text face", () => {
  it("a box of C read whole as code: its declarations, continuation lines, indents and blank lines", () => {
    const found = blocks(listing, listingShade)
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.strictEqual(
      (found[1] as { readonly text: string }).text,
      "int main(void)\n{\n  cmsHPROFILE hInProfile, hOutProfile;\n  cmsHTRANSFORM hTransform;\n\n" +
        "  hTransform = cmsCreateTransform(hInProfile,\n                      TYPE_BGR_8,\n" +
        "                      INTENT_PERCEPTUAL, 0);\n\n  return 0;\n}"
    )
  })

  it("without the box the declarations and continuation lines are not all read as code", () => {
    const found = blocks(listing, [])
    const code = found.flatMap((block) => block._tag === "Code" ? [block.text] : []).join("\n")
    assert.isFalse(code.includes("TYPE_BGR_8,"))
  })

  it("pieces of a line on one baseline are joined at their distance", () => {
    const found = blocks([
      item("#define LCMS_USED_AS_INPUT", 50, 110),
      item("0", 250, 110),
      item("#define LCMS_USED_AS_OUTPUT", 50, 122),
      item("1", 250, 122)
    ], shading([100, 114], [114, 126]))
    assert.deepStrictEqual(found, [{
      _tag: "Code",
      text: "#define LCMS_USED_AS_INPUT" + " ".repeat(14) + "0\n#define LCMS_USED_AS_OUTPUT" + " ".repeat(13) + "1"
    }])
  })

  it("a shaded box of prose (a note, definitions in sentences) stays text", () => {
    const found = blocks([
      item("INTENT_PERCEPTUAL:", 50, 110),
      item("If adequate table is present in profile, then it is used.", 70, 122),
      item("INTENT_SATURATION:", 50, 134),
      item("If adequate table is present in profile, then it is used too.", 70, 146)
    ], shading([100, 150]))
    assert.isFalse(found.some((block) => block._tag === "Code"))
  })

  it("a box whose lines are mostly not C (a table of names and values) stays text", () => {
    const found = blocks([
      item("COEFFICIENT_A 1.2345", 50, 110),
      item("HEX_VALUE 0x1234", 50, 122),
      item("WITH_EXPONENT 1.2E4", 50, 134)
    ], shading([100, 138]))
    assert.isFalse(found.some((block) => block._tag === "Code"))
  })
})
