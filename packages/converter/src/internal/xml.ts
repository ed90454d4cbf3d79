/** XML text escaping, shared by the EPUB's chapters, navigation and package file. */

// XML 1.0 forbids these code points; a single one makes the whole file unreadable.
const xmlInvalid = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** Text for XML content and attribute values, without the characters XML cannot carry. */
export const escapeXml = (text: string): string =>
  text.replace(xmlInvalid, "").replace(
    /[&<>"']/g,
    (c) => c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === "\"" ? "&quot;" : "&apos;"
  )
