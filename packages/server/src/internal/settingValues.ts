/**
 * The kinds of value a setting takes, as Schemas reading a config file's JSON and a flag's or variable's
 * text, and writing the file's form back; a refusal names the value and what is allowed.
 */
import * as Duration from "effect/Duration"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"

const show = (value: unknown): string => {
  if (Redacted.isRedacted(value)) return "<redacted>"
  return JSON.stringify(value) ?? String(value)
}

/** Replaces the Schema's message with the value and what is allowed (a secret is not shown). */
export const allowed = (what: string, options: { readonly secret?: boolean } = {}) => ({
  message: (issue: ParseResult.ParseIssue) => ({
    message: options.secret === true ? `not ${what}` : `${show(issue.actual)} is not ${what}`,
    override: true
  })
})

const fromText = <A, I>(to: Schema.Schema<A, I>, read: (text: string) => A | undefined, write: (value: A) => string) =>
  Schema.transformOrFail(Schema.String, Schema.typeSchema(to), {
    strict: true,
    decode: (text, _, ast) => {
      const value = read(text.trim())
      return value === undefined ? ParseResult.fail(new ParseResult.Type(ast, text)) : ParseResult.succeed(value)
    },
    encode: (value) => ParseResult.succeed(write(value))
  })

const durationUnits: Record<string, number> = {
  ms: 1,
  millis: 1,
  s: 1_000,
  second: 1_000,
  seconds: 1_000,
  m: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000
}

const readMillis = (text: string): number | undefined => {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/.exec(text.toLowerCase())
  const factor = match === null ? undefined : durationUnits[match[2]!]
  return factor === undefined ? undefined : Math.round(Number(match![1]) * factor)
}

/** The shortest exact form: `1h`, `90s`, `250ms`. */
export const formatMillis = (millis: number): string => {
  for (const [unit, size] of [["h", 3_600_000], ["m", 60_000], ["s", 1_000]] as const) {
    if (millis >= size && millis % size === 0) return `${millis / size}${unit}`
  }
  return `${millis}ms`
}

const durationText = fromText(
  Schema.DurationFromSelf,
  (text) => {
    const millis = readMillis(text)
    return millis === undefined || !Number.isSafeInteger(millis) ? undefined : Duration.millis(millis)
  },
  (duration) => formatMillis(Duration.toMillis(duration))
)

const durationExamples = "such as 500ms, 30s, 5m or 1h"

export const PositiveDuration = durationText.pipe(Schema.filter((d) => Duration.toMillis(d) > 0)).annotations(
  allowed(`a duration above zero, ${durationExamples}`)
)

export const Duration0 = durationText.annotations(allowed(`a duration, ${durationExamples}, or 0s`))

const wholeText = fromText(Schema.Number, (text) => /^\d+$/.test(text) ? Number(text) : undefined, String)

const whole = (what: string, check: (n: number) => boolean) =>
  Schema.Union(Schema.Number, wholeText).pipe(Schema.filter((n) => Number.isSafeInteger(n) && check(n))).annotations(
    allowed(what)
  )

export const Count = whole("a whole number above 0", (n) => n >= 1)

export const Port = whole("a port from 0 (any free port) to 65535", (n) => n >= 0 && n <= 65535)

const byteUnits: Record<string, number> = { "": 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 }

/** A size in bytes: a number, or text with a binary unit (`64KiB`, `100MiB`, `1GiB`). */
export const Bytes = Schema.Union(
  Schema.Number,
  fromText(Schema.Number, (text) => {
    const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text)
    const factor = match === null ? undefined : byteUnits[match[2]!.toLowerCase()]
    return factor === undefined ? undefined : Math.round(Number(match![1]) * factor)
  }, String)
).pipe(Schema.filter((n) => Number.isSafeInteger(n) && n >= 1)).annotations(
  allowed("a size in bytes above 0: a number, or with a unit such as 64KiB, 100MiB or 1GiB")
)

const switchWords: Record<string, boolean> = { true: true, on: true, yes: true, false: false, off: false, no: false }

/** On or off: a JSON boolean, or `true`/`false` (also `on`/`off`, `yes`/`no`) as text. */
export const Switch = Schema.Union(Schema.Boolean, fromText(Schema.Boolean, (text) => switchWords[text], String))
  .annotations(allowed("true or false"))

const off = fromText(Schema.Literal(false), (text) => text === "off" || text === "false" ? false : undefined, String)

const windowLimit = Schema.Struct({ limit: Count, window: PositiveDuration })

const windowLimitText = fromText(
  windowLimit,
  (text) => {
    const match = /^(\d+)\s*\/\s*(.+)$/.exec(text)
    const millis = match === null ? undefined : readMillis(match[2]!)
    const limit = match === null ? 0 : Number(match[1])
    return millis === undefined || !(millis > 0) || !(limit >= 1) || !Number.isSafeInteger(limit) ?
      undefined :
      { limit, window: Duration.millis(millis) }
  },
  ({ limit, window }) => `${limit}/${formatMillis(Duration.toMillis(window))}`
)

/** So many per window, or `false` (off): `{"limit": 10, "window": "1s"}`, or as text `10/1s` or `off`. */
export const WindowLimitOrOff = Schema.Union(Schema.Literal(false), windowLimit, off, windowLimitText).annotations(
  allowed("a limit such as 10/1s (so many per window) or {\"limit\": 10, \"window\": \"1s\"}, or false (off)")
)

/** A whole number above zero, or `false` (off). */
export const CountOrOff = Schema.Union(Schema.Literal(false), Count, off).annotations(
  allowed("a whole number above 0, or false (off)")
)

/** A list as a JSON array or comma-separated text, chosen by the input's type: a problem is reported once. */
const listOrText = <A, I>(list: Schema.Schema<ReadonlyArray<A>, ReadonlyArray<I>>) =>
  Schema.transformOrFail(Schema.Unknown, Schema.typeSchema(list), {
    strict: true,
    decode: (input, options) =>
      ParseResult.decodeUnknown(list)(
        typeof input === "string" ? input.split(",").map((part) => part.trim()).filter((part) => part !== "") : input,
        options
      ),
    encode: (value, options) => ParseResult.encode(list)(value, options)
  })

const hostPattern = Schema.String.pipe(
  Schema.filter((host) => /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(host))
)

/** Host names (`files.example.com`, or `*.example.com` for its subdomains), a JSON array or comma separated. */
export const Hosts = listOrText(Schema.Array(hostPattern.annotations(
  allowed("a host name such as files.example.com or *.example.com")
)))

/** What an `Authorization` header can carry: 1 to 4096 visible ASCII characters, no spaces. */
export const credentialPattern = /^[\x21-\x7e]{1,4096}$/

/** An API key, never shown. */
export const KeyValue = Schema.Redacted(Schema.String.pipe(Schema.pattern(credentialPattern))).annotations(
  allowed("an API key: 1 to 4096 visible ASCII characters without spaces", { secret: true })
)

/** A key's name in logs, metrics and the tasks it owns. */
export const KeyName = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9][\w.#@-]{0,63}$/)).annotations(
  allowed("a name of 1 to 64 letters, digits and . _ - # @, starting with a letter or digit")
)

/** Per-key submit limits; a rule set to false is off. */
export const Limits = Schema.Struct({
  rate: Schema.optionalWith(WindowLimitOrOff, { exact: true }),
  quota: Schema.optionalWith(WindowLimitOrOff, { exact: true }),
  concurrency: Schema.optionalWith(CountOrOff, { exact: true }),
  concurrencyRetryAfter: Schema.optionalWith(PositiveDuration, { exact: true })
})

/** A key of the key table, with its own name and limits. */
export const KeyEntry = Schema.Struct({
  key: KeyValue,
  name: Schema.optionalWith(KeyName, { exact: true }),
  limits: Schema.optionalWith(Limits, { exact: true })
})

/** A key alone, or a key entry: chosen by the input's type, so that a problem is reported once. */
const KeyOrEntry = Schema.transformOrFail(
  Schema.Unknown,
  Schema.Union(Schema.typeSchema(KeyValue), Schema.typeSchema(KeyEntry)),
  {
    strict: true,
    decode: (input, options) =>
      typeof input === "string" ?
        ParseResult.decodeUnknown(KeyValue)(input, options) :
        ParseResult.decodeUnknown(KeyEntry)(input, options),
    encode: (value, options) =>
      Redacted.isRedacted(value)
        ? ParseResult.encode(KeyValue)(value, options)
        : ParseResult.encode(KeyEntry)(value, options)
  }
)

/** The accepted keys: a JSON array of keys or key entries, or keys separated by commas. */
export const Keys = listOrText(
  Schema.Array(KeyOrEntry).pipe(Schema.minItems(1)).annotations({
    message: (issue) => ({
      message: "at least one key is required",
      override: Array.isArray(issue.actual) && issue.actual.length === 0
    })
  })
)

export const HttpUrl = Schema.String.pipe(
  Schema.filter((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol))
).annotations(allowed("an absolute http(s) URL"))

/** A secret of at least 16 bytes, never shown. */
export const SigningKey = Schema.Redacted(
  Schema.String.pipe(Schema.filter((key) => new TextEncoder().encode(key).byteLength >= 16))
).annotations(allowed("a key of at least 16 bytes", { secret: true }))

export const Secret = Schema.Redacted(Schema.String.pipe(Schema.minLength(1))).annotations(
  allowed("a non-empty text", { secret: true })
)

export const LogFormat = Schema.Literal("text", "json").annotations(allowed("text or json"))

const pseudoNames = new Map<unknown, string>([
  [PositiveDuration, "DURATION"],
  [Duration0, "DURATION"],
  [Count, "N"],
  [Port, "PORT"],
  [Bytes, "BYTES"],
  [Switch, "true|false"],
  [LogFormat, "text|json"],
  [WindowLimitOrOff, "N/DURATION|off"],
  [CountOrOff, "N|off"],
  [Hosts, "HOST,HOST"],
  [Keys, "KEY,KEY"],
  [HttpUrl, "URL"],
  [SigningKey, "SECRET"],
  [Secret, "SECRET"]
])

/** What a flag of this kind of value takes, for help texts. */
export const pseudoNameOf = (schema: unknown): string => pseudoNames.get(schema) ?? "TEXT"
