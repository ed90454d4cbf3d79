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

/**
 * The whole document as Markdown, blocks separated by blank lines.
 *
 * @since 0.1.0
 * @category rendering
 */
export const render = (document: Document.Document): string => {
  const parts: Array<string> = []
  for (const block of document.blocks) {
    const text = renderBlock(block)
    if (text !== undefined && text.trim() !== "") parts.push(text)
  }
  return parts.length === 0 ? "" : `${parts.join("\n\n")}\n`
}
