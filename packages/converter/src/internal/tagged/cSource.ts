/**
 * C source set in a text face: a word processor's example typed in the body's font, which the tree tags
 * as plain paragraphs. Its lines say what it is: directives, comments and statements, never a sentence.
 */
import type { Line } from "../layout/model.js"

const directive = /^#\s*(?:include|define|undef|ifn?def|if|elif|else|endif|pragma|error)\b/
const comment = /^(?:\/\*.*\*\/|\/\/.*)$/
/** A statement or a brace: ends in `;`, `{` or `}` with C's punctuation in it. */
const statement = /^(?=.*[(){}=[\]]).*[;{}]$/

const kind = (text: string): "code" | "comment" | undefined =>
  directive.test(text) || statement.test(text) ? "code" : comment.test(text) ? "comment" : undefined

/** Whether every line is C source (a lone line only when it is a directive), at least one not a comment. */
export const isCSource = (lines: ReadonlyArray<Line>): boolean => {
  const kinds = lines.map((line) => kind(line.text.trim()))
  if (kinds.length === 0 || kinds.some((k) => k === undefined) || !kinds.includes("code")) return false
  return kinds.length > 1 || directive.test(lines[0]!.text.trim())
}
