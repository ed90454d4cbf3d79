/** Settings described on the leaves of `ServerConfig`'s Schema, so the file, flags and variables cannot disagree. */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as V from "./settingValues.js"

interface About {
  readonly description: string
  readonly secret?: boolean
  /** The flag's name when it is not the path's. */
  readonly flag?: string
  /** What the flag takes, when its kind of value does not say it well. */
  readonly pseudoName?: string
  /** The value `pdf-transform serve` takes when none is given (shown by `--print-config`). */
  readonly default?: unknown
  /** Only `pdf-transform serve` reads it. */
  readonly serveOnly?: boolean
}

/** What the Schema of a leaf tells besides: derived once, where the leaf is declared. */
interface Derived {
  readonly isSwitch: boolean
  readonly pseudoName: string
  readonly defaultText: string | undefined
}

const AboutId = Symbol.for("@pdf-transform/server/ServerConfig/About")

/** The default as one types it: `10/1s` for a limit, `30s` for a duration. */
const textOf = (encoded: unknown): string =>
  typeof encoded === "object" && encoded !== null && "limit" in encoded && "window" in encoded ?
    `${String(encoded.limit)}/${String(encoded.window)}` :
    String(encoded)

export const leaf = <A, I>(schema: Schema.Schema<A, I>, description: string, more: Omit<About, "description"> = {}) => {
  const about: About = { description, ...more }
  const derived: Derived = {
    isSwitch: (schema as unknown) === V.Switch,
    pseudoName: about.pseudoName ?? V.pseudoNameOf(schema),
    defaultText: "default" in about ? textOf(Schema.encodeSync(schema)(about.default as A)) : undefined
  }
  return Schema.optionalWith(schema.annotations({ [AboutId]: { ...about, ...derived } }), { exact: true })
}

export const group = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.optionalWith(Schema.Struct(fields), { exact: true })

/** One setting: where it sits in a config file, its flag and its environment variable. */
export interface Setting {
  readonly path: ReadonlyArray<string>
  readonly flag: string
  readonly env: string
  readonly description: string
  readonly secret: boolean
  readonly serveOnly: boolean
  /** A switch: its flag takes no value (`--remote-fetch`, `--no-remote-fetch`). */
  readonly isSwitch: boolean
  /** What the flag's value is, for help texts: `DURATION`, `N`, `URL`... */
  readonly pseudoName: string
  readonly default: Option.Option<unknown>
  readonly defaultText: Option.Option<string>
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)

export const settingsOf = (ast: AST.AST, path: ReadonlyArray<string>): Array<Setting> => {
  if (!AST.isTypeLiteral(ast)) return []
  return ast.propertySignatures.flatMap((property) => {
    const name = String(property.name)
    const type = property.type
    const about = AST.getAnnotation<About & Derived>(type, AboutId)
    if (Option.isNone(about)) return settingsOf(type, [...path, name])
    const flag = about.value.flag ?? [...path, name].map(kebab).join("-")
    return [{
      path: [...path, name],
      flag,
      env: `PDF_TRANSFORM_SERVER_${flag.replace(/-/g, "_").toUpperCase()}`,
      description: about.value.description,
      secret: about.value.secret === true,
      serveOnly: about.value.serveOnly === true,
      isSwitch: about.value.isSwitch,
      pseudoName: about.value.pseudoName,
      default: "default" in about.value ? Option.some(about.value.default) : Option.none(),
      defaultText: Option.fromNullable(about.value.defaultText)
    }]
  })
}

export const getIn = (value: unknown, path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>(
    (at, key) => typeof at === "object" && at !== null ? (at as Record<string, unknown>)[key] : undefined,
    value
  )

/** Sets `value` at `path`, copying the objects on the way (they may be a caller's). */
export const setIn = (target: Record<string, unknown>, path: ReadonlyArray<string>, value: unknown): void => {
  let at = target
  for (const key of path.slice(0, -1)) {
    const next = at[key]
    at[key] = typeof next === "object" && next !== null ? { ...next } : {}
    at = at[key] as Record<string, unknown>
  }
  at[path[path.length - 1]!] = value
}

export const redactedText = "<redacted>"

export const redact = (value: unknown): unknown => {
  if (typeof value === "string") return redactedText
  if (Array.isArray(value)) return value.map(redact)
  if (typeof value === "object" && value !== null && "key" in value) return { ...value, key: redactedText }
  return value
}
