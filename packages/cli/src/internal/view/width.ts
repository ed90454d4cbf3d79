/**
 * Widths in terminal columns: escape sequences take none, combining marks none, East Asian wide
 * and fullwidth characters (and most emoji) two. Lines that fit never wrap, so a redraw that
 * moves the cursor up by its own line count lands where it started.
 */

const escape = String.fromCharCode(0x1b)
const escapes = new RegExp(`${escape}\\[[0-9;?]*[A-Za-z]`, "g")

const isCombining = (code: number): boolean =>
  (code >= 0x0300 && code <= 0x036f) || (code >= 0x1ab0 && code <= 0x1aff) || (code >= 0x20d0 && code <= 0x20ff) ||
  (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xfe20 && code <= 0xfe2f) || code === 0x200b || code === 0x200d

const isWide = (code: number): boolean =>
  (code >= 0x1100 && code <= 0x115f) || (code >= 0x2e80 && code <= 0x303e) || (code >= 0x3041 && code <= 0x33ff) ||
  (code >= 0x3400 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xa000 && code <= 0xa4cf) ||
  (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) ||
  (code >= 0xff00 && code <= 0xff60) || (code >= 0xffe0 && code <= 0xffe6) || (code >= 0x1f300 && code <= 0x1f64f) ||
  (code >= 0x1f900 && code <= 0x1f9ff) || (code >= 0x20000 && code <= 0x3fffd)

/** Columns one character takes (control characters count as one: they are replaced before display). */
export const charWidth = (char: string): number => {
  const code = char.codePointAt(0) ?? 0
  if (isCombining(code)) return 0
  return isWide(code) ? 2 : 1
}

/** Removes the terminal's escape sequences. */
export const stripEscapes = (text: string): string => text.replace(escapes, "")

/** Control characters (a file name may hold any) would move the cursor: shown as `?`. */
export const printable = (text: string): string => text.replace(/\p{Cc}/gu, "?")

/** Columns the text takes on screen. */
export const width = (text: string): number => {
  let columns = 0
  for (const char of stripEscapes(text)) columns += charWidth(char)
  return columns
}

/** Cuts plain text (no escapes) to at most `columns`, ending with `…` when cut. */
export const truncate = (text: string, columns: number): string => {
  if (columns <= 0) return ""
  if (width(text) <= columns) return text
  let kept = ""
  let used = 0
  for (const char of text) {
    const w = charWidth(char)
    if (used + w > columns - 1) break
    kept += char
    used += w
  }
  return `${kept}…`
}

/** Cuts plain text from the start (`…ng/path/name.pdf`): the end of a path says most. */
export const truncateStart = (text: string, columns: number): string => {
  if (columns <= 0) return ""
  if (width(text) <= columns) return text
  const chars = Array.from(text)
  let kept = ""
  let used = 0
  for (let i = chars.length - 1; i >= 0; i--) {
    const w = charWidth(chars[i]!)
    if (used + w > columns - 1) break
    kept = chars[i] + kept
    used += w
  }
  return `…${kept}`
}

/** Pads plain text with spaces to exactly `columns` (cutting it when longer). */
export const fit = (text: string, columns: number): string => {
  const cut = truncate(text, columns)
  return cut + " ".repeat(Math.max(0, columns - width(cut)))
}
