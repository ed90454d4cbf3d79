/** Download file names sanitised for every file system and browser, as RFC 6266 `Content-Disposition`. */

const maxNameLength = 150

/** Removes path separators, control and reserved characters, leading dots and Windows device names. */
export const sanitizeFilename = (name: string | undefined, fallback: string): string => {
  const cleaned = (name ?? "")
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f/\\:*?"<>|]/g, "_")
    .replace(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[.\s]+/, "")
    .replace(/[.\s]+$/, "")
  const bounded = Array.from(cleaned).slice(0, maxNameLength).join("")
  if (bounded === "" || /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(bounded)) return fallback
  return bounded
}

/** `attachment; filename="ascii"; filename*=UTF-8''percent-encoded` (RFC 6266, RFC 8187). */
export const contentDisposition = (filename: string): string => {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\%]/g, "_")
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
  )
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
