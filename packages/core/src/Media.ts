/** Content types and extensions of the formats, and what counts as a PDF.
 * @since 0.1.0 */
import type { Format } from "./Contract.js"

const contentTypes: Record<Format, string> = {
  markdown: "text/markdown; charset=utf-8",
  epub: "application/epub+zip"
}

const extensions: Record<Format, string> = { markdown: ".md", epub: ".epub" }

/** The `Content-Type` of a downloaded output: UTF-8 Markdown, or an EPUB 3 archive.
 * @since 0.1.0
 * @category formats */
export const contentType = (format: Format): string => contentTypes[format]

/** The file extension of an output, with its dot (`".md"`, `".epub"`).
 * @since 0.1.0
 * @category formats */
export const extension = (format: Format): string => extensions[format]

/** The `Content-Type` of a PDF.
 * @since 0.1.0
 * @category pdf */
export const pdfContentType = "application/pdf"

const pdfHeader = [0x25, 0x50, 0x44, 0x46, 0x2d] // "%PDF-"

/** Whether the bytes start with the PDF header `%PDF-`.
 * @since 0.1.0
 * @category pdf */
export const looksLikePdf = (bytes: Uint8Array): boolean =>
  bytes.byteLength >= pdfHeader.length && pdfHeader.every((byte, index) => bytes[index] === byte)
