/**
 * The document model as GitHub-flavoured Markdown (figures left out: one `.md` file cannot hold them).
 * @since 0.1.0
 */
import type * as Document from "./Document.js"
import { Style } from "./Document.js"
import type { NoteIds } from "./internal/footnotes.js"
import { idBase, pairNotes } from "./internal/footnotes.js"

// Characters that start emphasis, code, links, HTML or strikethrough anywhere in a line.
const inlineSpecial = /[\\`*_[\]<>~]/g

const escapeSpecial = (text: string): string => text.replace(inlineSpecial, (c) => `\\${c}`)

// A bare URL as `<url>`: GFM's autolink literal would keep `\_` in its address.
const bareUrl = /\b(?:https?|ftp):\/\/[^\s<>"/]*\.[^\s<>"]*[^\s<>"'.,;:!?)\]}*_~]/g

/** With a `)` that closes a `(` inside the address (Wikipedia's `Foo_(bar)`). */
const balanced = (url: string, after: string): string =>
  after.startsWith(")") && (url.match(/\(/g) ?? []).length > (url.match(/\)/g) ?? []).length ? `${url})` : url

const escapeInline = (text: string): string => {
  let out = ""
  let at = 0
  for (const match of text.matchAll(bareUrl)) {
    const url = balanced(match[0], text.slice(match.index + match[0].length))
    out += `${escapeSpecial(text.slice(at, match.index))}<${url}>`
    at = match.index + url.length
  }
  return out + escapeSpecial(text.slice(at))
}

const escapeBlockStart = (text: string): string =>
  text
    .replace(/^(\s*)([#>+=-])/, "$1\\$2")
    .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, "$1\\$2")

/**
 * Escapes text so Markdown shows it literally: inline markup characters everywhere, and block
 * markers (headings, quotes, list markers, thematic breaks) at the start of the text. A bare
 * `http(s)://` or `ftp://` address becomes an autolink `<...>`, which reads no escapes.
 * @since 0.1.0
 * @category rendering
 */
export const escapeText = (text: string): string => escapeBlockStart(escapeInline(text))

const escapeCell = (text: string): string => escapeText(text).replace(/\|/g, "\\|")

const longestRun = (text: string, char: string): number =>
  Math.max(0, ...(text.match(new RegExp(`${char === "`" ? "`" : "~"}+`, "g")) ?? []).map((run) => run.length))

/** A code span that shows `text` as it is: a fence of more backticks than it holds. */
const codeSpan = (text: string): string => {
  const fence = "`".repeat(longestRun(text, "`") + 1)
  const pad = text.startsWith("`") || text.endsWith("`") || (text.startsWith(" ") && text.endsWith(" ")) ? " " : ""
  return `${fence}${pad}${text}${pad}${fence}`
}

const punctuation = /[\p{P}\p{S}]/u
const alphanumeric = /[\p{L}\p{N}]/u

/** Emphasis delimiters around `inner` where CommonMark reads them as such; otherwise undefined. */
const emphasis = (inner: string, style: number, before: string, after: string): string | undefined => {
  const delimiter = (style & Style.strong ? "**" : "") + (style & Style.emphasis ? "*" : "")
  if (delimiter === "" || inner === "" || /^\s|\s$/.test(inner)) return undefined
  if (punctuation.test(inner[0]!) && alphanumeric.test(before)) return undefined
  if (punctuation.test(inner[inner.length - 1]!) && alphanumeric.test(after)) return undefined
  return `${delimiter}${escapeInline(inner)}${delimiter}`
}

/**
 * Text with its marks as Markdown: code spans, `**strong**`, `*emphasis*`; everything else
 * escaped. Spaces at a mark's ends stay outside its delimiters.
 * @since 0.1.0
 * @category rendering
 */
export const renderInline = (text: string, marks: ReadonlyArray<Document.Mark> = []): string =>
  inline(text, marks, undefined)

/** The id a footnote reference links to: its pair's, else (a block rendered alone) its label's. */
const referenceId = (mark: Document.Mark, label: string, notes: NoteIds | undefined): string | undefined =>
  notes === undefined ? idBase(label) : notes.references.get(mark)

const noNotes: NoteIds = { references: new Map(), notes: new Map() }

/** `renderInline`, with footnote references as `[^id]` when they are paired (else their label as text). */
const inline = (text: string, marks: ReadonlyArray<Document.Mark>, notes: NoteIds | undefined): string => {
  if (marks.length === 0) return escapeText(text)
  let out = ""
  let at = 0
  let plainStart = true
  for (const mark of marks) {
    if (mark.start < at || mark.end > text.length) continue
    out += escapeInline(text.slice(at, mark.start))
    const raw = text.slice(mark.start, mark.end)
    const inner = raw.trim()
    const lead = raw.slice(0, raw.length - raw.trimStart().length)
    const trail = raw.slice(raw.trimEnd().length)
    const before = lead !== "" ? " " : text[mark.start - 1] ?? " "
    const after = trail !== "" ? " " : text[mark.end] ?? " "
    const reference = (mark.style & Style.footnote) !== 0 && inner !== ""
      ? referenceId(mark, inner, notes)
      : undefined
    const styled = inner === ""
      ? undefined
      : reference !== undefined
      ? `[^${reference}]`
      : (mark.style & Style.footnote) !== 0
      ? undefined
      : (mark.style & Style.code) !== 0
      ? codeSpan(inner)
      : emphasis(inner, mark.style, before, after)
    if (mark.start === 0 && styled !== undefined && lead === "") plainStart = false
    out += styled === undefined ? escapeInline(raw) : `${escapeInline(lead)}${styled}${escapeInline(trail)}`
    at = mark.end
  }
  out += escapeInline(text.slice(at))
  return plainStart ? escapeBlockStart(out) : out
}

const renderList = (list: Document.List, indent: string, notes: NoteIds | undefined): Array<string> =>
  list.items.flatMap((item, index) => {
    // GFM numbers only in digits: a lettered or roman item is a bullet item that keeps its label.
    const marker = item.label !== undefined ? "-" : list.ordered ? `${list.start + index}.` : "-"
    const inner = indent + " ".repeat(marker.length + 1)
    // An item's paragraphs and listings: indented under its text, blank lines around them.
    const itemBlocks = (blocks: ReadonlyArray<Document.Paragraph | Document.Code>): Array<string> =>
      blocks.flatMap((block) => [
        "",
        ...(block._tag === "Code" ? renderCode(block.text) : inline(block.text, block.marks ?? [], notes))
          .split("\n").map((line) => line === "" ? "" : inner + line)
      ])
    const blocks = itemBlocks(item.blocks ?? [])
    const after = itemBlocks(item.after ?? [])
    return [
      `${indent}${marker} ${item.label !== undefined ? `${item.label} ` : ""}${
        inline(item.text, item.marks ?? [], notes)
      }`
        .trimEnd(),
      ...blocks,
      ...(blocks.length > 0 ? [""] : []),
      ...(item.lists ?? []).flatMap((nested) => renderList(nested, inner, notes)),
      ...after,
      ...(after.length > 0 ? [""] : [])
    ]
  })

/** A line in bold, unless its ends would not let `**` open and close there (it stays as it is). */
const strongLine = (markdown: string): string => {
  const text = markdown.trim()
  return text === "" || text.endsWith("\\") || /^\*|\*$/.test(text) ? text : `**${text}**`
}

/** A fenced code block; its text is never escaped, so the fence is longer than any run inside. */
const renderCode = (text: string): string => {
  const fence = "`".repeat(Math.max(3, longestRun(text, "`") + 1))
  return `${fence}\n${text}\n${fence}`
}

/**
 * One block as Markdown; a footnote reference links to the note of its label.
 * @since 0.1.0
 * @category rendering
 */
export const renderBlock = (block: Document.Block): string | undefined => blockMarkdown(block, undefined)

const blockMarkdown = (block: Document.Block, notes: NoteIds | undefined): string | undefined => {
  switch (block._tag) {
    case "Heading":
      return `${"#".repeat(Math.max(1, Math.min(6, block.level)))} ${inline(block.text, block.marks ?? [], notes)}`
    case "Paragraph":
      return inline(block.text, block.marks ?? [], notes)
    case "Term":
      return strongLine(inline(block.text, block.marks ?? [], notes))
    case "Footnote": {
      const id = notes?.notes.get(block) ?? idBase(block.label)
      const text = block.text.trim() === "" ? escapeText(block.label) : inline(block.text, block.marks ?? [], notes)
      return `[^${id}]: ${text}`
    }
    case "List":
      return renderList(block, "", notes).join("\n").replace(/\n+$/, "")
    case "Code":
      return renderCode(block.text)
    case "Table": {
      const width = Math.max(...block.rows.map((row) => row.length))
      const cell = (r: number, i: number): string => {
        const marks = block.marks?.[r]?.[i] ?? []
        const text = block.rows[r]?.[i] ?? ""
        return marks.length === 0 ? escapeCell(text) : inline(text, marks, notes).replace(/\|/g, "\\|")
      }
      const row = (r: number) => `| ${Array.from({ length: width }, (_, i) => cell(r, i)).join(" | ")} |`
      const rest = block.rows.slice(1).map((_, r) => row(r + 1))
      return [row(0), `|${" --- |".repeat(width)}`, ...rest].join("\n")
    }
    case "Figure":
    case "PageBreak":
      return undefined
  }
}

const blockTexts = (document: Document.Document): Array<string> => {
  const parts: Array<string> = []
  // References without any footnote in the document stay text (a link to nothing is not one).
  const notes = document.blocks.some((block) => block._tag === "Footnote") ? pairNotes(document.blocks) : noNotes
  for (const block of document.blocks) {
    const text = blockMarkdown(block, notes)
    if (text !== undefined && text.trim() !== "") parts.push(text)
  }
  return parts
}

/**
 * The whole document as Markdown, blocks separated by blank lines.
 * @since 0.1.0
 * @category rendering
 */
export const render = (document: Document.Document): string => {
  const parts = blockTexts(document)
  return parts.length === 0 ? "" : `${parts.join("\n\n")}\n`
}

/** Bytes of `text` in UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes, as TextEncoder writes it). */
const utf8Length = (text: string): number => {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xD800 && code <= 0xDBFF && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xDC00 && next <= 0xDFFF) {
        bytes += 4
        i++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}

/**
 * `render` as UTF-8 bytes, block by block into one buffer: a long document never exists as one string.
 * @since 0.1.0
 * @category rendering
 */
export const renderUtf8 = (document: Document.Document): Uint8Array => {
  const parts = blockTexts(document)
  if (parts.length === 0) return new Uint8Array(0)
  const separator = "\n\n"
  let size = 0
  for (const part of parts) size += utf8Length(part) + separator.length
  const bytes = new Uint8Array(size - 1)
  const encoder = new TextEncoder()
  let offset = 0
  parts.forEach((part, i) => {
    offset += encoder.encodeInto(part, bytes.subarray(offset)).written
    offset += encoder.encodeInto(i === parts.length - 1 ? "\n" : separator, bytes.subarray(offset)).written
  })
  return bytes
}
