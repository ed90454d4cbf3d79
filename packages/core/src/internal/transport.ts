/** Classifies transport failures: did the request certainly not reach the server? */
import * as Predicate from "effect/Predicate"

/** Error codes of no connection made: nothing was sent, so a submit retry cannot make a second task. */
const notSentCodes: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_NONAME",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT"
])

const codeOf = (u: unknown): string | undefined =>
  Predicate.hasProperty(u, "code") && typeof u.code === "string" ? u.code : undefined

/** Walks the `cause` chain (bounded, cycles ignored) looking for a "not sent" error code. */
export const wasNotSent = (error: unknown): boolean => {
  let current: unknown = error
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    const code = codeOf(current)
    if (code !== undefined && notSentCodes.has(code)) return true
    if (current instanceof AggregateError && current.errors.some(wasNotSent)) return true
    current = Predicate.hasProperty(current, "cause") ? current.cause : undefined
  }
  return false
}

/** A short human description of a transport failure. */
export const describe = (error: unknown): string => {
  const parts: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const code = codeOf(current)
    const message = current instanceof Error ? current.message : undefined
    // Node's messages often name the code already ("connect ECONNREFUSED 127.0.0.1:9").
    const text = code !== undefined && message?.includes(code) === true ?
      message :
      [code, message].filter(Predicate.isString).join(" ")
    if (text !== "" && !parts.includes(text)) parts.push(text)
    current = Predicate.hasProperty(current, "cause") ? current.cause : undefined
  }
  return parts.length === 0 ? "unknown transport failure" : parts.join(": ")
}
