/**
 * What a reader of a Markdown text sees of its structure, read with `marked`'s lexer (GFM): code
 * lines, inline code, emphasis, list items, headings, table rows and words; and how much of a
 * reference's structure a candidate kept.
 */
import type { Token, Tokens } from "marked"
import { Lexer } from "marked"

/** Whitespace collapsed, NFC: how a span's text is compared. */
const squash = (text: string): string => text.normalize("NFC").replace(/\s+/g, " ").trim()

/** Letters and digits only, case-folded: list items and headings compared past punctuation and escapes. */
export const key = (text: string): string => text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")

/** A letter or roman label an item's text opens with ("(b) ", "iv. "): GFM numbers only in digits, so a
 * converter keeps such a label in the text; items are compared past it, on both sides. */
const itemLabel = /^\(?(?:[a-zA-Z]|[ivxIVX]{1,5})[.)]\s+/u

/** A visible section number at the start of a heading: "1", "1.2", "A.3", "0.1". */
export const sectionNumber = /^(?:[A-Z]|\d+)(?:\.\d+)*\.?(?=\s)/

export interface Heading {
  readonly level: number
  readonly text: string
}

export interface ListItem {
  readonly depth: number
  readonly text: string
}

export interface Structure {
  /** Each table row's cells read as one text (`key`): a row is the same row however its cells were cut. */
  readonly tableRows: Array<string>
  /** Each code block's lines, trailing spaces cut, the block's common indentation removed. */
  readonly codeLines: Array<string>
  readonly inlineCode: Array<string>
  /** "em:text" and "strong:text". */
  readonly emphasis: Array<string>
  readonly listItems: Array<ListItem>
  readonly headings: Array<Heading>
  readonly words: Array<string>
}

const dedent = (lines: ReadonlyArray<string>): Array<string> => {
  const indents = lines.filter((line) => line.trim() !== "").map((line) => /^ */.exec(line)![0].length)
  const common = indents.length === 0 ? 0 : Math.min(...indents)
  return lines.map((line) => line.slice(common).trimEnd()).filter((line) => line !== "")
}

/** Plain text of inline tokens (what the reader reads). */
const plain = (tokens: ReadonlyArray<Token> | undefined, fallback: string): string =>
  tokens === undefined ? fallback : tokens.map((token) => {
    if ("tokens" in token && token.tokens !== undefined && token.type !== "codespan") {
      return plain(token.tokens, "text" in token ? String(token.text) : "")
    }
    if (token.type === "br") return " "
    return "text" in token ? String(token.text) : "raw" in token ? token.raw : ""
  }).join("")

const unescape = (text: string): string =>
  text.replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(
    /&#39;/g,
    "'"
  )

/**
 * GFM footnotes, which `marked` does not read, as the label a page shows: a reference `[^2-2]` as
 * "2", a definition `[^2-2]: text` as a paragraph "2 text" (the references' HTML editions write
 * a note's label beside its text too); a symbol's (`[^note]`) as nothing, as `key` reads a symbol.
 */
export const footnotesAsLabels = (markdown: string): string => {
  // A symbol's id is "note" (the converter's ids keep a label's letters and digits only).
  const label = (id: string): string => id === "note" ? "" : id
  let fence: string | undefined
  return markdown.split("\n").map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence !== undefined) {
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined
      return line
    }
    if (opening !== undefined) {
      fence = opening
      return line
    }
    // Outside code spans only (the even pieces between backtick runs).
    return line.replace(/^\[\^([A-Za-z0-9]+)(?:-\d+)?\]: /, (_, id: string) => `${label(id)} `).split(/(`+[^`]*`+)/)
      .map((piece, i) =>
        i % 2 === 1 ? piece : piece.replace(/\[\^([A-Za-z0-9]+)(?:-\d+)?\]/g, (_, id: string) => label(id))
      )
      .join("")
  }).join("\n")
}

/** The structure of a Markdown text. */
export const structure = (markdown: string): Structure => {
  const out: Structure = {
    codeLines: [],
    inlineCode: [],
    emphasis: [],
    listItems: [],
    headings: [],
    tableRows: [],
    words: []
  }
  const text: Array<string> = []
  const inline = (tokens: ReadonlyArray<Token> | undefined): void => {
    for (const token of tokens ?? []) {
      if (token.type === "codespan") out.inlineCode.push(squash(unescape((token as Tokens.Codespan).text)))
      else if (token.type === "em" || token.type === "strong") {
        const inner = squash(unescape(plain((token as Tokens.Em).tokens, (token as Tokens.Em).text)))
        if (inner !== "") out.emphasis.push(`${token.type}:${inner}`)
      }
      if ("tokens" in token && token.tokens !== undefined) inline(token.tokens)
    }
  }
  const blocks = (tokens: ReadonlyArray<Token>, depth: number): void => {
    for (const token of tokens) {
      switch (token.type) {
        case "code": {
          const code = token as Tokens.Code
          out.codeLines.push(...dedent(code.text.split("\n")))
          text.push(code.text)
          break
        }
        case "heading": {
          const heading = token as Tokens.Heading
          out.headings.push({ level: heading.depth, text: squash(unescape(plain(heading.tokens, heading.text))) })
          inline(heading.tokens)
          text.push(unescape(plain(heading.tokens, heading.text)))
          break
        }
        case "list":
          for (const item of (token as Tokens.List).items) {
            const own = item.tokens.filter((t) => t.type !== "list")
            const itemText = own.map((t) => "tokens" in t && t.tokens !== undefined ? plain(t.tokens, "") : "").join(
              " "
            )
            out.listItems.push({ depth, text: squash(unescape(itemText)).replace(itemLabel, "") })
            blocks(item.tokens, depth + 1)
          }
          break
        case "table": {
          const table = token as Tokens.Table
          for (const row of [table.header, ...table.rows]) {
            out.tableRows.push(key(row.map((cell) => unescape(plain(cell.tokens, cell.text))).join(" ")))
          }
          for (const cell of [...table.header, ...table.rows.flat()]) {
            inline(cell.tokens)
            text.push(unescape(plain(cell.tokens, cell.text)))
          }
          break
        }
        case "paragraph":
        case "text": {
          const paragraph = token as Tokens.Paragraph
          if (paragraph.tokens !== undefined) inline(paragraph.tokens)
          text.push(unescape(plain(paragraph.tokens, paragraph.text)))
          break
        }
        case "blockquote":
          blocks((token as Tokens.Blockquote).tokens, depth)
          break
        default:
          break
      }
    }
  }
  blocks(Lexer.lex(markdown, { gfm: true }), 0)
  const words = text.join("\n").normalize("NFKC").toLowerCase().split(/[^\p{L}\p{N}]+/u)
  // One at a time: a long manual has more words than a call may take arguments.
  for (const word of words) if (word !== "") out.words.push(word)
  return out
}

/** How many of `reference` (with multiplicity) `candidate` also has. */
export const found = (reference: ReadonlyArray<string>, candidate: ReadonlyArray<string>): number => {
  const available = new Map<string, number>()
  for (const item of candidate) available.set(item, (available.get(item) ?? 0) + 1)
  let hits = 0
  for (const item of reference) {
    const count = available.get(item) ?? 0
    if (count > 0) {
      hits++
      available.set(item, count - 1)
    }
  }
  return hits
}

/** A count out of a total. */
export interface Score {
  readonly hits: number
  readonly total: number
}

export interface Comparison {
  readonly codeLines: Score
  /** Of the lines the candidate puts in code blocks, those the reference has as code (marking everything code must not pass). */
  readonly codeLinePrecision: Score
  readonly inlineCode: Score
  /** Of the candidate's inline code spans, those the reference has. */
  readonly inlineCodePrecision: Score
  readonly emphasis: Score
  readonly listItems: Score
  /** Of the list items found, those at the reference's nesting depth. */
  readonly listDepth: Score
  readonly headings: Score
  /** Of the candidate's headings, those the reference has as headings (a caption or a term made a heading is not). */
  readonly headingPrecision: Score
  /** Of the headings found, those whose level is the reference's, up to one shift for the document. */
  readonly headingDepth: Score
  /** Reference headings that start with a section number, found with it. */
  readonly numbered: Score
  /** Rows of the candidate's tables against the reference's: how many each has (a count says nothing of false tables). */
  readonly tableRows: { readonly ours: number; readonly reference: number }
  /** Reference table rows found as rows of the candidate's tables. */
  readonly tableRowsFound: Score
  /** Of the candidate's table rows, those the reference's tables have (a heading or a paragraph read as a table is not). */
  readonly tableRowPrecision: Score
  readonly words: Score
}

/** Heading matches: each reference heading to the first unused candidate with the same key. */
const matchHeadings = (reference: ReadonlyArray<Heading>, candidate: ReadonlyArray<Heading>) => {
  const unnumbered = (text: string) => key(text.replace(sectionNumber, ""))
  const used = new Set<number>()
  const pairs: Array<{ readonly reference: Heading; readonly candidate: Heading }> = []
  for (const heading of reference) {
    const k = unnumbered(heading.text)
    const index = candidate.findIndex((c, i) => !used.has(i) && unnumbered(c.text) === k)
    if (index < 0) continue
    used.add(index)
    pairs.push({ reference: heading, candidate: candidate[index]! })
  }
  return pairs
}

/** The most common level difference between matched headings: a document may start at `##`. */
const modalShift = (pairs: ReadonlyArray<{ readonly reference: Heading; readonly candidate: Heading }>): number => {
  const counts = new Map<number, number>()
  for (const pair of pairs) {
    const shift = pair.candidate.level - pair.reference.level
    counts.set(shift, (counts.get(shift) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0
}

export const compare = (reference: Structure, candidate: Structure): Comparison => {
  const score = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): Score => ({
    hits: found(a, b),
    total: a.length
  })
  const itemKeys = (items: ReadonlyArray<ListItem>) => items.map((item) => key(item.text)).filter((k) => k !== "")
  const referenceItems = reference.listItems.filter((item) => key(item.text) !== "")
  const depthKeys = (items: ReadonlyArray<ListItem>) => items.map((item) => `${item.depth}:${key(item.text)}`)
  const pairs = matchHeadings(reference.headings, candidate.headings)
  const shift = modalShift(pairs)
  const numbered = reference.headings.filter((heading) => sectionNumber.test(heading.text))
  const candidateKeys = candidate.headings.map((heading) => key(heading.text))
  const listHits = found(itemKeys(reference.listItems), itemKeys(candidate.listItems))
  return {
    codeLines: score(reference.codeLines, candidate.codeLines),
    codeLinePrecision: score(candidate.codeLines, reference.codeLines),
    inlineCode: score(reference.inlineCode, candidate.inlineCode),
    inlineCodePrecision: score(candidate.inlineCode, reference.inlineCode),
    emphasis: score(reference.emphasis, candidate.emphasis),
    listItems: { hits: listHits, total: referenceItems.length },
    listDepth: { hits: found(depthKeys(referenceItems), depthKeys(candidate.listItems)), total: listHits },
    headings: { hits: pairs.length, total: reference.headings.length },
    headingPrecision: { hits: pairs.length, total: candidate.headings.length },
    headingDepth: {
      hits: pairs.filter((pair) => pair.candidate.level - pair.reference.level === shift).length,
      total: pairs.length
    },
    numbered: { hits: found(numbered.map((heading) => key(heading.text)), candidateKeys), total: numbered.length },
    tableRows: { ours: candidate.tableRows.length, reference: reference.tableRows.length },
    tableRowsFound: score(reference.tableRows, candidate.tableRows),
    tableRowPrecision: score(candidate.tableRows, reference.tableRows),
    words: score(reference.words, candidate.words)
  }
}
