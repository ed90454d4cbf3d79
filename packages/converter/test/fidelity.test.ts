import { assert, describe, it } from "@effect/vitest"
import { Either } from "effect"
import { existsSync, readdirSync } from "node:fs"
import * as Path from "node:path"
import type { Check } from "../bench/fidelityChecks.js"
import { parseChecks } from "../bench/fidelityChecks.js"
import { checksPath, documents, fidelityDir, loadChecks, pdfPath, readIndex } from "../bench/fidelityCorpus.js"
import { explain, judge, score } from "../bench/fidelityScore.js"
import { normalize, readMarkdown, readPlain } from "../bench/fidelityText.js"

const parse = (source: string): Array<Check> => {
  const parsed = parseChecks(source, "test.checks")
  if (Either.isLeft(parsed)) throw new Error(parsed.left.message)
  return parsed.right
}

/** The one check of `line`, judged on `markdown`. */
const holds = (line: string, markdown: string): boolean => judge(parse(line)[0]!, readMarkdown(markdown))

describe("fidelity checks parser", () => {
  it("reads every kind, with separators, comments and trailing comments", () => {
    const checks = parse([
      "# producer: LaTeX",
      "",
      "present: some words here",
      "once: Chapter 3 Title            # a title that is also a running head",
      "order: first >> second",
      "adjacent: end of page ++ start of next",
      "heading-above: Chapter > Section",
      "row: A | B",
      "footnote-at: words | the note",
      "code: x = 1 # not a comment: one space"
    ].join("\n"))
    assert.deepStrictEqual(checks, [
      { kind: "present", text: "some words here", line: 3 },
      { kind: "once", text: "Chapter 3 Title", line: 4 },
      { kind: "order", first: "first", second: "second", line: 5 },
      { kind: "adjacent", first: "end of page", second: "start of next", line: 6 },
      { kind: "heading-above", first: "Chapter", second: "Section", line: 7 },
      { kind: "row", first: "A", second: "B", line: 8 },
      { kind: "footnote-at", first: "words", second: "the note", line: 9 },
      { kind: "code", text: "x = 1 # not a comment: one space", line: 10 }
    ])
  })

  it("names the file and line of an unknown kind, a missing separator or an empty text", () => {
    for (
      const [source, line, reason] of [
        ["present: ok\nprsent: typo", 2, "unknown kind"],
        ["\n\norder: no separator here", 3, "separated by \">>\""],
        ["row: a | b | c", 1, "two non-empty texts"],
        ["heading:", 1, "expected \"kind: text\""],
        ["just text", 1, "expected \"kind: text\""]
      ] as const
    ) {
      const parsed = parseChecks(source, "corpus/x.checks")
      assert.isTrue(Either.isLeft(parsed), source)
      if (Either.isLeft(parsed)) {
        assert.strictEqual(parsed.left.line, line, source)
        assert.include(parsed.left.message, `corpus/x.checks:${line}: `)
        assert.include(parsed.left.message, reason)
      }
    }
  })
})

describe("fidelity normalisation", () => {
  it("folds quotes, dashes, spaces, ligatures and soft hyphens, and keeps case", () => {
    assert.strictEqual(
      normalize("“Don’t” — it’s\u00A0ﬁne\u22122 docu\u00ADment \n\t end"),
      "\"Don't\" - it's fine-2 document end"
    )
    assert.notStrictEqual(normalize("Word"), normalize("word"))
  })

  it("reads Markdown as text: markers, emphasis, escapes, links, entities and footnote references gone", () => {
    const read = readMarkdown(
      "## A *heading* \\#1\n\n- item **bold**\n\n> quoted [link](http://x.org) `co*de` a &lt; b[^1] \\[x\\]\n\n[^1]: the note\n"
    )
    assert.strictEqual(read.text, "A heading #1 item bold quoted link co*de a < b [x] the note")
  })
})

describe("fidelity judgements", () => {
  it("present and absent across a soft line break, not across a hyphen left at a line end", () => {
    assert.isTrue(holds("present: across the line", "text across\nthe line end"))
    assert.isFalse(holds("present: document structure", "a docu-\nment structure"))
    assert.isTrue(holds("absent: Running Head", "body text\n\nmore body"))
    assert.isFalse(holds("absent: Running Head", "body text\n\nRunning Head 3\n\nmore"))
  })

  it("once fails on a repeated running title", () => {
    assert.isTrue(holds("once: Chapter Title", "# Chapter Title\n\ntext"))
    assert.isFalse(holds("once: Chapter Title", "# Chapter Title\n\ntext\n\nChapter Title 2\n\ntext"))
  })

  it("order needs the first occurrence of each in reading order", () => {
    assert.isTrue(holds("order: left column >> right column", "left column text\n\nright column text"))
    assert.isFalse(holds("order: left column >> right column", "right column text\n\nleft column text"))
    assert.isFalse(holds("order: left column >> missing", "left column text"))
  })

  it("adjacent fails with a page number or a footnote between the two", () => {
    const line = "adjacent: continues across ++ the page break"
    assert.isTrue(holds(line, "it continues across\nthe page break"))
    assert.isTrue(holds(line, "it continues across\n\nthe page break"))
    assert.isFalse(holds(line, "it continues across\n\n12\n\nthe page break"))
    assert.isFalse(holds(line, "it continues across\n\n1 A footnote.\n\nthe page break"))
  })

  it("heading needs a heading line; heading-above and heading-same compare levels", () => {
    const md = "# Chapter One\n\n## Section A\n\ntext\n\n## Section B\n\n**Bold Para**\n\n### Sub\n"
    assert.isTrue(holds("heading: Section A", md))
    assert.isFalse(holds("heading: Bold Para", md))
    assert.isTrue(holds("heading-above: Chapter One > Section A", md))
    assert.isTrue(holds("heading-above: Section B > Sub", md))
    assert.isFalse(holds("heading-above: Section A > Section B", md))
    assert.isFalse(holds("heading-above: Sub > Section B", md))
    assert.isTrue(holds("heading-same: Section A > Section B", md))
    assert.isFalse(holds("heading-same: Chapter One > Section A", md))
    assert.isFalse(holds("heading-same: Section A > Bold Para", md))
  })

  it("not-heading needs the text present and in no heading line", () => {
    const md = "# Contents 3\n\nContents 3\n\n## Section A\n\n**Bold Para** text\n"
    assert.isTrue(holds("not-heading: Bold Para", md))
    assert.isFalse(holds("not-heading: Section A", md))
    assert.isFalse(holds("not-heading: Contents 3", md))
    assert.isFalse(holds("not-heading: Lost Line", md))
  })

  it("item needs a list item, its continuation lines included", () => {
    const md = "- first item\n  continued here\n- second\n\nnot an item\n"
    assert.isTrue(holds("item: first item continued here", md))
    assert.isFalse(holds("item: not an item", md))
    assert.isTrue(holds("item: nested one", "1. top\n   - nested one\n"))
  })

  it("an item's text after its nested list is the item's, read after that list", () => {
    const md = "1. top\n   - nested one\n\n   after the list\n2. next\n"
    assert.isTrue(holds("item: after the list", md))
    assert.isTrue(holds("order: nested one >> after the list", md))
    assert.isFalse(holds("order: after the list >> nested one", md))
  })

  it("row needs both cells in one row, in order", () => {
    const md = "| Name | Value |\n| --- | --- |\n| alpha | 1.5 |\n| beta | 2.5 |\n"
    assert.isTrue(holds("row: alpha | 1.5", md))
    assert.isTrue(holds("row: Name | Value", md))
    assert.isFalse(holds("row: alpha | 2.5", md))
    assert.isFalse(holds("row: 1.5 | alpha", md))
    assert.isFalse(holds("row: alpha | 1.5", "alpha 1.5\n\nbeta 2.5"))
  })

  it("footnote fails when its text is glued into a paragraph; footnote-at needs the marker after the words", () => {
    const good = "The claim is made here.[^3] More text.\n\n[^3]: See the appendix for proof.\n    Second line.\n"
    assert.isTrue(holds("footnote: See the appendix for proof. Second line.", good))
    assert.isTrue(holds("footnote-at: The claim is made here. | See the appendix", good))
    assert.isFalse(holds("footnote-at: More text. | See the appendix", good))
    const glued = "The claim is made here.3 See the appendix for proof. More text."
    assert.isFalse(holds("footnote: See the appendix for proof.", glued))
    const both = "Body with See the appendix for proof. inside.[^1]\n\n[^1]: See the appendix for proof.\n"
    assert.isFalse(holds("footnote: See the appendix for proof.", both))
    const other = "Here.[^1] There.[^2]\n\n[^1]: First note.\n\n[^2]: Second note.\n"
    assert.isFalse(holds("footnote-at: Here. | Second note.", other))
    assert.isTrue(holds("footnote-at: There. | Second note.", other))
  })

  it("a reference in a table's cell is no cell text, and footnote-at finds it there", () => {
    const md = "| Name | Notes[^1] |\n| --- | --- |\n| alpha | G,O |\n\n[^1]: G=Graphite; O=OpenType\n"
    assert.isTrue(holds("footnote-at: Notes | G=Graphite", md))
    assert.isTrue(holds("row: Name | Notes", md))
    assert.isFalse(holds("present: Notes[^1]", md))
  })

  it("code needs a fenced or indented code block", () => {
    assert.isTrue(holds("code: ls -l /tmp", "Run:\n\n```\n$ ls -l /tmp\n```\n"))
    assert.isTrue(holds("code: ls -l /tmp", "Run:\n\n    $ ls -l /tmp\n"))
    assert.isFalse(holds("code: ls -l /tmp", "Run `ls -l /tmp` now."))
  })

  it("prose needs the text outside code blocks and tables", () => {
    assert.isTrue(holds("prose: break [n]", "break \\[n\\]\n\n: Exit from a loop."))
    assert.isFalse(holds("prose: break [n]", "```\nbreak [n]\n```\n\nExit from a loop."))
    assert.isFalse(holds("prose: break [n]", "| break [n] | Exit |\n| --- | --- |\n"))
  })

  it("explains a failure by where the text is: a contents line, then the heading and its level", () => {
    const read = readMarkdown("1 Intro ..... 3\n\n## 1 Intro\n\nBody text here.\n")
    const [check] = parse("heading-above: 1 Intro > Body text")
    assert.isFalse(judge(check!, read))
    const account = explain(check!, read)
    assert.include(account, "in a paragraph: \"1 Intro ..... 3\", then in a heading level 2: \"1 Intro\"")
    assert.include(account, "second: in a paragraph: \"Body text here.\"")
  })

  it("scores plain text only on present, absent and order", () => {
    const checks = parse("present: two words\nabsent: Page 2\nheading: Title\nadjacent: two ++ words")
    const { tallies } = score(checks, readPlain("Title\ntwo\nwords\nPage 2\n"), true)
    assert.deepStrictEqual(tallies.present, { held: 1, total: 1 })
    assert.deepStrictEqual(tallies.absent, { held: 0, total: 1 })
    assert.deepStrictEqual(tallies.order, { held: 1, total: 1 })
    assert.deepStrictEqual(tallies.headings, { held: 0, total: 0 })
  })
})

describe("fidelity corpus", () => {
  it("reads the documents table's rows and nothing else", () => {
    const rows = readIndex([
      "| id | set | pages | producer class | producer | tagged | source | licence |",
      "|---|---|---|---|---|---|---|---|",
      "| some-doc | dev | 12 | groff | groff / gropdf | no | Debian groff | GPL-3+ |",
      "| other | heldout | 3 | Word | Microsoft Word | yes | x | y |",
      "| present | `present: words` | the stretch occurs |",
      "| Some-Doc | dev | 1 | a | b | no | c | d |"
    ].join("\n"))
    assert.deepStrictEqual(rows, [
      { id: "some-doc", set: "dev", pages: 12, producer: "groff", tagged: false },
      { id: "other", set: "heldout", pages: 3, producer: "Word", tagged: true }
    ])
  })

  it("every listed document has its PDF and checks, every file is listed, and every checks file parses", () => {
    const listed = documents()
    assert.isAbove(listed.length, 0)
    assert.strictEqual(new Set(listed.map((doc) => doc.id)).size, listed.length, "an id is listed twice")
    for (const doc of listed) {
      assert.isTrue(existsSync(pdfPath(doc)), `${pdfPath(doc)} is missing`)
      assert.isTrue(existsSync(checksPath(doc)), `${checksPath(doc)} is missing`)
      const parsed = loadChecks(doc)
      if (Either.isLeft(parsed)) assert.fail(parsed.left.message)
      else assert.isAbove(parsed.right.length, 0, `${doc.id} has no assertions`)
    }
    const ids = new Set(listed.map((doc) => `${doc.set}/${doc.id}`))
    for (const set of ["dev", "heldout"]) {
      const dir = Path.join(fidelityDir, set)
      for (const file of existsSync(dir) ? readdirSync(dir) : []) {
        const id = file.replace(/\.(pdf|checks)$/, "")
        assert.isTrue(ids.has(`${set}/${id}`), `${set}/${file} is not in corpus/fidelity/README.md`)
      }
    }
  })
})
