/** What reads as C source line by line: an example in a Word body's font, a CWEB listing in text faces. */
import type { Line } from "./model.js"
import { isPromptLine } from "./promptLines.js"

const directive = /^#\s*(?:include|define|undef|ifn?def|if|elif|else|endif|pragma|error)\b/
const comment = /^(?:\/\*.*\*\/|\/\/.*)$/
/** A statement or a brace: ends in `;`, `{` or `}` with C's punctuation in it. */
const statement = /^(?=.*[(){}=[\]]).*[;{}]$/

/** Math symbols a typesetter uses for C's asterisk and minus, read as them. */
const ascii = (text: string): string => text.trim().replace(/\u2217/g, "*").replace(/\u2212/g, "-")

const kind = (text: string): "code" | "comment" | undefined =>
  directive.test(text) || statement.test(text) ? "code" : comment.test(text) ? "comment" : undefined

/** Whether every line is C source (a lone line only when it is a directive), at least one not a comment. */
export const isCSource = (lines: ReadonlyArray<Line>): boolean => {
  const kinds = lines.map((line) => kind(line.text.trim()))
  if (kinds.length === 0 || kinds.some((k) => k === undefined) || !kinds.includes("code")) return false
  return kinds.length > 1 || directive.test(lines[0]!.text.trim())
}

/** A directive as a listing sets it: a header in brackets or quotes, or a name defined; no sentence's end. */
const listingDirective =
  /^#\s*(?:include\s*[<"]|define\s+[A-Za-z_]|undef\s|ifn?def\s|if\s|elif\s|else$|endif\b)(?!.*[.,:!?]$)/
const keyword = "(?:typedef|return|break|continue|goto|static|extern|const|struct|enum|union|unsigned|signed|" +
  "void|int|char|short|long|float|double|bool)"
/** A statement with no punctuation but its `;`: one a keyword starts (`return 0;`), or an increment. */
const plainStatement = new RegExp(`^(?:${keyword}\\b.*|.*(?:\\+\\+|--).*);$`)
/**
 * A declaration: a type, then names (pointer stars, array bounds) separated by commas, and `;`. A type or
 * name must look like code (an underscore, a capital inside a word, a star), so "see the rest;" is none.
 */
const declaration =
  /^(?:(?:const|static|extern|struct|enum|union|unsigned|signed|volatile)\s+)*[A-Za-z_]\w*(?:\s*\*+\s*|\s+)[A-Za-z_]\w*(?:\[\w*\])?(?:\s*,\s*\**\s*[A-Za-z_]\w*(?:\[\w*\])?)*\s*;$/
const codeName = /_|\*|[a-z][A-Z]/

/** A control statement's head, `else` or `do`, with its opening brace. */
const control = /^(?:\}\s*)?(?:(?:else\s+)?(?:if|while|for|switch)\s*\(.*\)|else|do)\s*\{?$/
/** A function's head: a type (a keyword or a name in capitals), pointer stars, the name, its parameters. */
const functionHead = new RegExp(
  `^(?:${keyword}|[A-Z][A-Z0-9_]+)(?:\\s+${keyword})*\\s+\\**[A-Za-z_][\\w ]*\\(.*\\)\\s*\\{?$`
)
const brace = /^[{}]\s*;?$/

/** A statement as a listing sets it: ends in `;` or `{`, or in `}` closing a block with a statement in it. */
const listingStatement = /^(?=.*[(){}=[\]])(?:.*[;{]|.*;.*\})$/
/** Five plain words in a row, outside strings and comments: a sentence (a sentence's aside ends in `);` too). */
const words = /(?:\b[a-z]+ ){4}[a-z]+\b/
/** Strings, characters and comments (a quoted option's `--` is no decrement). */
const quoted = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.){1,2}'|\u2018[^\u2019]*\u2019|\/\*.*?\*\//g
const bullet = /^[\u2022\u25E6\u25AA\u25AB\u25CF\u25CB\u25A0\u25A1\u25BA\u25B8\u2023\u2043\u2219\u00B7]/

/** How a line of a listing in a text face reads: C, a comment, or neither. */
export const listingLine = (text: string): "code" | "comment" | undefined => {
  const line = ascii(text)
  if (listingDirective.test(line)) return "code"
  if (comment.test(line)) return "comment"
  if (isPromptLine(line)) return "code"
  const bare = line.replace(quoted, "\"\"")
  if (bullet.test(line) || words.test(bare)) return undefined
  if (plainStatement.test(bare) || control.test(line) || functionHead.test(line) || brace.test(line)) return "code"
  if (declaration.test(line) && codeName.test(line)) return "code"
  return !directive.test(line) && listingStatement.test(line) ? "code" : undefined
}

/** A statement that may stand alone: parameters, then a block or a `;` in braces (a function on one line). */
export const isBlockStatement = (text: string): boolean => {
  const line = ascii(text)
  return listingLine(text) === "code" && /\(.*\{.*;.*\}\s*;?$/.test(line)
}

export const isListingDirective = (text: string): boolean => listingDirective.test(ascii(text))

/** A line of prose rather than of a listing: a bullet, or five plain words in a row outside strings and comments. */
export const readsAsProse = (text: string): boolean => {
  const line = ascii(text)
  return !comment.test(line) && (bullet.test(line) || words.test(line.replace(quoted, "\"\"")))
}
