/**
 * The fidelity suite's `.checks` files: one assertion a line (`kind: text`), read into typed
 * checks, or a parse error naming the file and line (`corpus/fidelity/README.md` has the format).
 */
import * as Data from "effect/Data"
import * as Either from "effect/Either"

/** Kinds judged on one stretch of text. */
export type SingleKind =
  | "present"
  | "absent"
  | "once"
  | "heading"
  | "not-heading"
  | "item"
  | "footnote"
  | "code"
  | "prose"

/** Kinds judged on two stretches, with the separator written between them. */
export type PairKind = "order" | "adjacent" | "heading-above" | "heading-same" | "row" | "footnote-at"

export type Check =
  | { readonly kind: SingleKind; readonly text: string; readonly line: number }
  | { readonly kind: PairKind; readonly first: string; readonly second: string; readonly line: number }

const singleKinds: ReadonlySet<string> = new Set<SingleKind>([
  "present",
  "absent",
  "once",
  "heading",
  "not-heading",
  "item",
  "footnote",
  "code",
  "prose"
])

const separators: Readonly<Record<PairKind, string>> = {
  "order": " >> ",
  "adjacent": " ++ ",
  "heading-above": " > ",
  "heading-same": " > ",
  "row": " | ",
  "footnote-at": " | "
}

/** The kinds the scorer reports, each a group of check kinds. */
export type Group =
  | "present"
  | "absent"
  | "order"
  | "headings"
  | "not-headings"
  | "lists"
  | "tables"
  | "footnotes"
  | "code"
  | "prose"

export const groups: ReadonlyArray<Group> = [
  "present",
  "absent",
  "order",
  "headings",
  "not-headings",
  "lists",
  "tables",
  "footnotes",
  "code",
  "prose"
]

/** The groups plain text can be judged on, so `pdftotext` is scored on them too. */
export const textGroups: ReadonlyArray<Group> = ["present", "absent", "order"]

export const groupOf = (kind: Check["kind"]): Group => {
  switch (kind) {
    case "present":
    case "once":
      return "present"
    case "absent":
      return "absent"
    case "order":
    case "adjacent":
      return "order"
    case "heading":
    case "heading-above":
    case "heading-same":
      return "headings"
    case "not-heading":
      return "not-headings"
    case "item":
      return "lists"
    case "row":
      return "tables"
    case "footnote":
    case "footnote-at":
      return "footnotes"
    case "code":
      return "code"
    case "prose":
      return "prose"
  }
}

export class ChecksParseError extends Data.TaggedError("ChecksParseError")<{
  readonly file: string
  readonly line: number
  readonly reason: string
}> {
  override get message(): string {
    return `${this.file}:${this.line}: ${this.reason}`
  }
}

const isPairKind = (kind: string): kind is PairKind => Object.hasOwn(separators, kind)

/**
 * A trailing comment starts at two or more spaces then `#`: texts are compared with whitespace
 * collapsed, so an assertion never needs two spaces of its own.
 */
const trailingComment = /\s{2,}#.*$/

/** Reads one `.checks` file's text; `file` names it in errors. */
export const parseChecks = (source: string, file: string): Either.Either<Array<Check>, ChecksParseError> => {
  const checks: Array<Check> = []
  const lines = source.split(/\r?\n/)
  for (let index = 0; index < lines.length; index++) {
    const line = index + 1
    const fail = (reason: string) => Either.left(new ChecksParseError({ file, line, reason }))
    const raw = lines[index]!.replace(trailingComment, "").trim()
    if (raw === "" || raw.startsWith("#")) continue
    const match = /^([a-z-]+):\s(.*)$/.exec(raw)
    if (match === null) return fail(`expected "kind: text", got "${raw.slice(0, 60)}"`)
    const kind = match[1]!
    const body = match[2]!.trim()
    if (singleKinds.has(kind)) {
      if (body === "") return fail(`${kind}: empty text`)
      checks.push({ kind: kind as SingleKind, text: body, line })
    } else if (isPairKind(kind)) {
      const parts = body.split(separators[kind])
      if (parts.length !== 2 || parts.some((part) => part.trim() === "")) {
        return fail(`${kind}: expected two non-empty texts separated by "${separators[kind].trim()}"`)
      }
      checks.push({ kind, first: parts[0]!.trim(), second: parts[1]!.trim(), line })
    } else {
      return fail(`unknown kind "${kind}"`)
    }
  }
  return Either.right(checks)
}
