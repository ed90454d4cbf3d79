/**
 * The submit body: read as UTF-8 JSON, bounded in nesting, decoded with core's Schema fields, and
 * every problem reported once per field in a message short enough to read.
 */
import * as Contract from "@pdf-transform/core/Contract"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { HttpFailure } from "./http.js"
import { fail } from "./http.js"

/**
 * The submit body as the server enforces it: core's `ConversionRequest` fields, with `model`
 * required as the contract says (core's Schema defaults it for callers), bounded strings, and
 * unknown keys ignored as the hosted service does.
 */
export const SubmitBody = Schema.Struct({
  ...Contract.ConversionRequest.fields,
  pdfURL: Contract.HttpUrl.pipe(Schema.maxLength(4096)),
  model: Contract.Model,
  filename: Schema.optional(Schema.String.pipe(Schema.maxLength(255)))
})

export type SubmitBody = typeof SubmitBody.Type

const decode = Schema.decodeUnknownEither(SubmitBody, { errors: "all", onExcessProperty: "ignore" })

/**
 * The deepest nesting a submit body may have. The valid body is one flat object; formatting the
 * parse error of a value nested thousands deep recursed until the stack overflowed.
 */
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

/**
 * One line per field: a value that fails every member of a union (`boolean | undefined` for an
 * optional field) yields an issue per member, and only the first says something useful.
 */
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

/** The decoded body, or the 400 that names what is wrong. */
export const parseSubmitBody = (raw: Uint8Array): Either.Either<SubmitBody, HttpFailure> => {
  let text: string
  let json: unknown
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw)
    json = JSON.parse(text)
  } catch {
    return Either.left(fail(400, "invalid_json", "The request body is not valid UTF-8 JSON"))
  }
  if (nestsDeeperThan(text, maxNesting)) {
    return Either.left(
      fail(400, "invalid_request", `The request body is nested more than ${maxNesting} levels deep`)
    )
  }
  return Either.mapLeft(decode(json), (error) => fail(400, "invalid_request", problemOf(error)))
}
