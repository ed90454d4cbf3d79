/**
 * What the fidelity scorer compares: a text normalised the same way on both sides, and a Markdown
 * text read into its blocks (headings with their levels, list items, table rows, code blocks,
 * footnote definitions), each block's text as a reader reads it.
 */
import type { Token, Tokens } from "marked"
import { Lexer } from "marked"

/**
 * NFKC; curly quotes straight; dashes and minus as "-"; every space one space; soft hyphens
 * removed; whitespace collapsed.
 */
export const normalize = (text: string): string =>
  text
    .normalize("NFKC")
    .replace(/\u00AD/g, "")
    .replace(/[\u2018\u2019\u201A\u201B\u2032\u2035]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033\u2036]/g, "\"")
    .replace(/[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g, "-")
    .replace(/[\s\u00A0\u2000-\u200A\u202F\u205F\u3000]+/g, " ")
    .trim()

export type BlockKind = "heading" | "paragraph" | "item" | "code" | "table" | "footnote"

export interface Block {
  readonly kind: BlockKind
  /** Normalised text; a table's cells joined by spaces; footnote references left out. */
  readonly text: string
  /** A heading's level (number of `#`). */
  readonly depth?: number
  /** A footnote definition's label. */
  readonly label?: string
  /** A table's rows, header first, each cell normalised. */
  readonly rows?: ReadonlyArray<ReadonlyArray<string>>
  /** Body text with its footnote references kept as `[^label]`. */
  readonly withReferences?: string
}

export interface ReadText {
  /** Every block's text in order, as one normalised text. */
  readonly text: string
  readonly blocks: ReadonlyArray<Block>
}

const footnoteReference = /\[\^([^\]\s]+)\]/g

const entities: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'" }

const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (whole, name: string) => {
    if (name.startsWith("#x")) return String.fromCodePoint(parseInt(name.slice(2), 16))
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)))
    return entities[name] ?? whole
  })

/** The text of inline tokens as a reader reads it: delimiters, escapes and link targets gone. */
const inlineText = (tokens: ReadonlyArray<Token> | undefined): string =>
  (tokens ?? []).map((token): string => {
    switch (token.type) {
      case "codespan":
        return (token as Tokens.Codespan).text
      case "escape":
        return (token as Tokens.Escape).text
      case "br":
        return " "
      case "text":
        return "tokens" in token && token.tokens !== undefined
          ? inlineText(token.tokens)
          : decodeEntities((token as Tokens.Text).text)
      default:
        return "tokens" in token && token.tokens !== undefined
          ? inlineText(token.tokens)
          : "text" in token
          ? decodeEntities(String(token.text))
          : token.raw
    }
  }).join("")

const bodyBlock = (kind: BlockKind, raw: string, extra: Partial<Block> = {}): Block => ({
  kind,
  text: normalize(raw.replace(footnoteReference, "")),
  withReferences: normalize(raw),
  ...extra
})

const isText = (token: Token): boolean => token.type === "text" || token.type === "paragraph"

const itemText = (tokens: ReadonlyArray<Token>): string =>
  tokens.map((child) => inlineText("tokens" in child && child.tokens !== undefined ? child.tokens : [])).join(" ")

/**
 * A list item's blocks: its text (its paragraphs before any nested list), then its code and nested
 * lists; text after a nested list is the item's too, read where it stands, after that list.
 */
const itemBlocks = (tokens: ReadonlyArray<Token>, out: Array<Block>): void => {
  const split = tokens.findIndex((child) => child.type === "list")
  const head = split < 0 ? tokens : tokens.slice(0, split)
  out.push(bodyBlock("item", itemText(head.filter(isText))))
  blocksOf(head.filter((child) => !isText(child)), out)
  let run: Array<Token> = []
  for (const child of split < 0 ? [] : tokens.slice(split)) {
    if (isText(child)) {
      run.push(child)
      continue
    }
    if (run.length > 0) out.push(bodyBlock("item", itemText(run)))
    run = []
    blocksOf([child], out)
  }
  if (run.length > 0) out.push(bodyBlock("item", itemText(run)))
}

/** The blocks of `tokens`, in order; a list item's nested lists and code follow its own text. */
const blocksOf = (tokens: ReadonlyArray<Token>, out: Array<Block>): void => {
  for (const token of tokens) {
    switch (token.type) {
      case "heading": {
        const heading = token as Tokens.Heading
        out.push(bodyBlock("heading", inlineText(heading.tokens), { depth: heading.depth }))
        break
      }
      case "paragraph":
      case "text":
        out.push(bodyBlock("paragraph", "tokens" in token ? inlineText(token.tokens) : String(token.text)))
        break
      case "html":
        out.push(bodyBlock("paragraph", token.raw))
        break
      case "code":
        out.push({ kind: "code", text: normalize((token as Tokens.Code).text) })
        break
      case "table": {
        const table = token as Tokens.Table
        const raw = [table.header, ...table.rows].map((row) => row.map((cell) => inlineText(cell.tokens)))
        const rows = raw.map((row) => row.map((cell) => normalize(cell.replace(footnoteReference, ""))))
        out.push({
          kind: "table",
          text: normalize(rows.map((row) => row.join(" ")).join(" ")),
          rows,
          withReferences: normalize(raw.map((row) => row.join(" ")).join(" "))
        })
        break
      }
      case "list":
        for (const item of (token as Tokens.List).items) itemBlocks(item.tokens, out)
        break
      case "blockquote":
        blocksOf((token as Tokens.Blockquote).tokens, out)
        break
      default:
        break
    }
  }
}

const fence = /^ {0,3}(`{3,}|~{3,})/
const definition = /^\[\^([^\]\s]+)\]:[ \t]?(.*)$/

type Segment = { readonly markdown: string } | { readonly label: string; readonly markdown: string }

/**
 * The Markdown cut into runs of body and footnote definitions (outside code fences): a
 * definition takes the lines that follow it until a blank line, and indented lines after a blank.
 */
const segments = (markdown: string): Array<Segment> => {
  const lines = markdown.split(/\r?\n/)
  const out: Array<Segment> = []
  let body: Array<string> = []
  let open: string | undefined
  const flush = () => {
    if (body.length > 0) out.push({ markdown: body.join("\n") })
    body = []
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const marker = fence.exec(line)?.[1]
    if (open !== undefined) {
      if (marker !== undefined && marker[0] === open[0] && marker.length >= open.length) open = undefined
      body.push(line)
      continue
    }
    if (marker !== undefined) open = marker
    const match = marker === undefined ? definition.exec(line) : null
    if (match === null) {
      body.push(line)
      continue
    }
    flush()
    const own = [match[2]!]
    while (i + 1 < lines.length) {
      const next = lines[i + 1]!
      if (next.trim() !== "" && !definition.test(next) && !/^ {0,3}(#|`{3}|~{3})/.test(next)) {
        own.push(next.trim())
        i++
      } else if (next.trim() === "" && /^ {2,}\S/.test(lines[i + 2] ?? "")) {
        own.push("")
        i++
      } else break
    }
    out.push({ label: match[1]!, markdown: own.join("\n") })
  }
  flush()
  return out
}

/** A Markdown text (GFM with footnotes) read into blocks. */
export const readMarkdown = (markdown: string): ReadText => {
  const blocks: Array<Block> = []
  for (const segment of segments(markdown)) {
    const tokens = new Lexer({ gfm: true }).lex(segment.markdown)
    if ("label" in segment) {
      const inner: Array<Block> = []
      blocksOf(tokens, inner)
      blocks.push({ kind: "footnote", label: segment.label, text: normalize(inner.map((b) => b.text).join(" ")) })
    } else {
      blocksOf(tokens, blocks)
    }
  }
  return { text: normalize(blocks.map((block) => block.text).join(" ")), blocks }
}

/** A plain text (pdftotext's) as one block. */
export const readPlain = (text: string): ReadText => {
  const normalized = normalize(text)
  return { text: normalized, blocks: [{ kind: "paragraph", text: normalized, withReferences: normalized }] }
}
