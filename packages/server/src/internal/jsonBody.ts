/** JSON request bodies: UTF-8, bounded nesting, decoded with a Schema, one short message per field. */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { HttpFailure } from "./http.js"
import { fail } from "./http.js"

/** The deepest nesting a body may have: the parse error of a deeply nested value overflowed the stack. */
export const maxNesting = 16

const maxMessageLength = 2000

/** Whether arrays and objects in `text` nest deeper than `limit` (brackets inside strings do not count). */
export const nestsDeeperThan = (text: string, limit: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // a backslash escapes the next character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) {
      depth--
    }
  }
  return false
}

/** One line per field: a union's failure yields an issue per member, and only the first is useful. */
const problemOf = (error: ParseResult.ParseError): string => {
  const seen = new Set<string>()
  const lines: Array<string> = []
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const path = issue.path.length === 0 ? "body" : issue.path.join(".")
    if (seen.has(path)) continue
    seen.add(path)
    lines.push(`${path}: ${issue.message}`)
  }
  return lines.join("; ").slice(0, maxMessageLength)
}

/** A decoder of `schema` from raw body bytes: the value, or the 400 that names what is wrong. Unknown keys are ignored. */
export const jsonBodyDecoder = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })
  return (raw: Uint8Array): Either.Either<A, HttpFailure> => {
    let text: string
    let json: unknown
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(raw)
      json = JSON.parse(text)
    } catch {
      return Either.left(fail(400, "invalid_json", "The request body is not valid UTF-8 JSON"))
    }
    if (nestsDeeperThan(text, maxNesting)) {
      return Either.left(fail(400, "invalid_request", `The request body is nested more than ${maxNesting} levels deep`))
    }
    return Either.mapLeft(decode(json), (error) => fail(400, "invalid_request", problemOf(error)))
  }
}
