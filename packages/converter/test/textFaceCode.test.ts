import { assert, describe, it } from "@effect/vitest"
import type { TextItem } from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { pageBlocks } from "./support/textItems.js"

/** One line's runs, each in its own face, set one after another with a word space between. */
const line = (x: number, y: number, ...runs: ReadonlyArray<readonly [string, number]>): Array<TextItem> => {
  let at = x
  return runs.map(([text, style]) => {
    const run = { text, x: at, y, width: text.length * 5, size: 10, rtl: false, style }
    at += run.width + 3
    return run
  })
}
const roman = (text: string, x: number, y: number) => line(x, y, [text, 0])

const blocks = pageBlocks

const bold = Style.strong
const italic = Style.emphasis

describe("listings set in text faces", () => {
  it("C in bold keywords and italic names is a listing, its indents and the comment beside a line kept", () => {
    const found = blocks([
      ...roman("The outline of the program is simple, and it reads the two files given.", 50, 100),
      ...line(50, 118, ["#define", bold], ["margin", italic], ["1", 0]),
      ...roman("/* leftmost column */", 160, 118),
      ...line(60, 130, ["int", bold], ["main", italic], ["(int n, char **arg)", 0]),
      ...line(60, 142, ["{ FILE", bold], ["*f1, *f2;", italic]),
      ...line(70, 154, ["return", bold], ["0;", 0]),
      ...roman("}", 60, 166),
      ...roman("The heart of the program is a loop that compares the two files.", 50, 190)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.deepStrictEqual(found[1], {
      _tag: "Code",
      text: "#define margin 1       /* leftmost column */\n" +
        "  int main (int n, char **arg)\n  { FILE *f1, *f2;\n    return 0;\n  }"
    })
  })

  it("an indented line between C lines that ends no sentence (a module's name) stays in the listing", () => {
    const found = blocks([
      ...roman("The heart of the program is a loop that compares the two files.", 50, 100),
      ...line(60, 118, ["while", bold], ["(c1 = getc(f1))", 0]),
      ...line(70, 130, ["<Report the outcome of the comparison 4>", 0]),
      ...line(70, 142, ["if", bold], ["(c1 == EOF) break;", 0]),
      ...roman("This code is used in section 2, which opens the files first.", 50, 166)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.strictEqual(
      (found[1] as { readonly text: string }).text,
      "while (c1 = getc(f1))\n  <Report the outcome of the comparison 4>\n  if (c1 == EOF) break;"
    )
  })

  it("a listing indented by a text face's em under a line that ends no sentence starts a code block", () => {
    const found = blocks([
      ...roman("The outcome is reported in the last section of the program.", 50, 100),
      ...roman("<Report the outcome of the comparison 4> =", 50, 118),
      ...line(59.9, 130, ["if", bold], ["(c1 == c2) printf(\"Files match.\");", 0]),
      ...line(59.9, 142, ["else", bold], ["printf(\"Files differ.\");", 0]),
      ...roman("This code is used in section 2, which opens the files first.", 50, 166)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Paragraph", "Code", "Paragraph"])
    assert.strictEqual(
      (found[2] as { readonly text: string }).text,
      "if (c1 == c2) printf(\"Files match.\");\nelse printf(\"Files differ.\");"
    )
  })

  it("a lone directive and a lone function on one line, indented, are listings; a lone statement is not", () => {
    const found = blocks([
      ...roman("The mode in which both files are opened is defined once, before the", 50, 100),
      ...roman("functions that open them.", 50, 112),
      ...line(50, 130, ["#define", bold], ["read_mode \"r\"", 0]),
      ...roman("The function says which file a sentence is about, first or second, and", 50, 154),
      ...roman("nothing else.", 50, 166),
      ...line(60, 184, ["void", bold], ["the_file (bool first) { printf(\"%s\", first); }", 0]),
      ...roman("It is called when the files differ, and then the program ends, as the", 50, 208),
      ...roman("next section shows.", 50, 220),
      ...roman("Each call is counted once (see section 3);", 60, 238),
      ...roman("The index lists every name of the program with its sections.", 50, 262)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), [
      "Paragraph",
      "Code",
      "Paragraph",
      "Code",
      "Paragraph",
      "Paragraph",
      "Paragraph"
    ])
  })

  it("sentences that start with a directive's name or end in a C aside stay running text", () => {
    const found = blocks([
      ...roman("One reason to give these directives to CWEB is that it reads the files named by", 50, 100),
      ...roman("#include directives to CWEB, so that it knows the typedef names they declare;", 50, 112),
      ...roman("the same holds for the lines given with the codes (@d and @h) in the sections);", 50, 124),
      ...roman("#define and #include directives can also be written into program modules.", 50, 136),
      ...line(50, 160, ["\u2022 the version number of Stow (\u2018stow --version\u2019);", 0]),
      ...line(50, 172, ["\u2022 the version number of Perl (\u2018perl -v\u2019);", 0])
    ])
    assert.isFalse(found.some((block) => block._tag === "Code"))
  })

  it("definition lines that start in the code face (texinfo's) are left to the code face's rules", () => {
    const found = blocks([
      ...roman("The class has these members, each described in the text under it.", 50, 100),
      ...line(50, 118, ["void set_base", Style.code], ["(double b)", italic]),
      ...line(50, 130, ["void set_limit", Style.code], ["(double l)", italic]),
      ...line(50, 142, ["void set_inc", Style.code], ["(double i)", italic]),
      ...roman("The next class holds a matrix, and its members are described below.", 50, 166)
    ])
    assert.isFalse(found.some((block) => block._tag === "Code"))
  })
})
