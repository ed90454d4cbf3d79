/**
 * Renders the document model as GitHub-flavoured Markdown: one UTF-8 text, figures left out
 * (a single `.md` file has nowhere to keep them).
 *
 * @since 0.1.0
 */
import type * as Document from "./Document.js"

// Characters that start emphasis, code, links, HTML or strikethrough anywhere in a line.
const inlineSpecial = /[\\`*_[\]<>~]/g

/**
 * Escapes text so Markdown shows it literally: inline markup characters everywhere, and block
 * markers (headings, quotes, list markers, thematic breaks) at the start of the text.
 *
 * @since 0.1.0
 * @category rendering
 */
export const escapeText = (text: string): string => {
  const escaped = text.replace(inlineSpecial, (c) => `\\${c}`)
  return escaped
    .replace(/^(\s*)([#>+=-])/, "$1\\$2")
    .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, "$1\\$2")
}

const escapeCell = (text: string): string => escapeText(text).replace(/\|/g, "\\|")

/**
 * @since 0.1.0
 * @category rendering
 */
export const renderBlock = (block: Document.Block): string | undefined => {
  switch (block._tag) {
    case "Heading":
      return `${"#".repeat(Math.max(1, Math.min(6, block.level)))} ${escapeText(block.text)}`
    case "Paragraph":
      return escapeText(block.text)
    case "List":
      return block.items
        .map((item, index) => `${block.ordered ? `${block.start + index}.` : "-"} ${escapeText(item)}`)
        .join("\n")
    case "Table": {
      const width = Math.max(...block.rows.map((row) => row.length))
      const row = (cells: ReadonlyArray<string>) =>
        `| ${Array.from({ length: width }, (_, i) => escapeCell(cells[i] ?? "")).join(" | ")} |`
      const [header = [], ...rest] = block.rows
      return [row(header), `|${" --- |".repeat(width)}`, ...rest.map(row)].join("\n")
    }
    case "Figure":
    case "PageBreak":
      return undefined
  }
}

/** The rendered blocks that have text, in order. */
const blockTexts = (document: Document.Document): Array<string> => {
  const parts: Array<string> = []
  for (const block of document.blocks) {
    const text = renderBlock(block)
    if (text !== undefined && text.trim() !== "") parts.push(text)
  }
  return parts
}

/**
 * The whole document as Markdown, blocks separated by blank lines.
 *
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
 * `render` as UTF-8 bytes, written block by block into one buffer: a long document's Markdown
 * never exists as one string (up to twice its UTF-8 size, held besides the bytes).
 *
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
