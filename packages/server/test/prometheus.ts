/**
 * A strict parser of the Prometheus text exposition format (0.0.4), for the metrics tests: any line
 * it cannot read, a sample before its family's TYPE, a family split in two, or a histogram whose
 * buckets are not cumulative or disagree with its count, throws with the line.
 */

export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Family {
  readonly name: string
  readonly type: "counter" | "gauge" | "histogram" | "summary" | "untyped"
  readonly help: string | undefined
  readonly samples: Array<Sample>
}

const metricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const labelName = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const types = new Set(["counter", "gauge", "histogram", "summary", "untyped"])

const number = (text: string, line: number): number => {
  if (text === "+Inf" || text === "Inf") return Number.POSITIVE_INFINITY
  if (text === "-Inf") return Number.NEGATIVE_INFINITY
  if (text === "NaN") return Number.NaN
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`line ${line}: not a number: ${text}`)
  return Number(text)
}

/** `{a="x",b="y"}` from `text` at `start` (the `{`): the labels and where they end. */
const labelsAt = (text: string, start: number, line: number): [Record<string, string>, number] => {
  const labels: Record<string, string> = {}
  let i = start + 1
  for (;;) {
    if (text[i] === "}") return [labels, i + 1]
    const eq = text.indexOf("=", i)
    const name = text.slice(i, eq)
    if (eq < 0 || !labelName.test(name)) throw new Error(`line ${line}: bad label name at ${i}: ${text}`)
    if (name in labels) throw new Error(`line ${line}: label ${name} twice`)
    if (text[eq + 1] !== "\"") throw new Error(`line ${line}: label ${name} is not quoted`)
    let value = ""
    let j = eq + 2
    for (; j < text.length && text[j] !== "\""; j++) {
      if (text[j] !== "\\") {
        value += text[j]
        continue
      }
      const escaped = text[++j]
      if (escaped === "n") value += "\n"
      else if (escaped === "\\" || escaped === "\"") value += escaped
      else throw new Error(`line ${line}: bad escape \\${escaped}`)
    }
    if (j >= text.length) throw new Error(`line ${line}: unterminated label value`)
    labels[name] = value
    i = j + 1
    if (text[i] === ",") i++
    else if (text[i] !== "}") throw new Error(`line ${line}: expected , or } at ${i}: ${text}`)
  }
}

/** The family a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` belong to it. */
const familyOf = (name: string, families: Map<string, Family>): Family | undefined => {
  const direct = families.get(name)
  if (direct !== undefined) return direct
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!name.endsWith(suffix)) continue
    const family = families.get(name.slice(0, -suffix.length))
    if (family !== undefined && (family.type === "histogram" || family.type === "summary")) return family
  }
  return undefined
}

const checkHistogram = (family: Family): void => {
  const series = new Map<string, Array<Sample>>()
  for (const sample of family.samples) {
    const { le: _le, ...rest } = sample.labels
    const key = JSON.stringify(Object.entries(rest).sort())
    series.set(key, [...(series.get(key) ?? []), sample])
  }
  for (const [key, samples] of series) {
    const buckets = samples.filter((s) => s.name === `${family.name}_bucket`)
    const count = samples.find((s) => s.name === `${family.name}_count`)
    if (buckets.length === 0 || count === undefined || !samples.some((s) => s.name === `${family.name}_sum`)) {
      throw new Error(`${family.name} ${key}: a histogram needs buckets, a sum and a count`)
    }
    const bounds = buckets.map((b) => number(b.labels["le"] ?? "", 0))
    for (let i = 1; i < buckets.length; i++) {
      if (!(bounds[i]! > bounds[i - 1]!) || buckets[i]!.value < buckets[i - 1]!.value) {
        throw new Error(`${family.name} ${key}: buckets not in order or not cumulative`)
      }
    }
    if (bounds[bounds.length - 1] !== Number.POSITIVE_INFINITY || buckets[buckets.length - 1]!.value !== count.value) {
      throw new Error(`${family.name} ${key}: the +Inf bucket must equal the count`)
    }
  }
}

/** Every family of an exposition, by name. */
export const parse = (text: string): Map<string, Family> => {
  const families = new Map<string, Family>()
  const help = new Map<string, string>()
  let current: Family | undefined
  text.split("\n").forEach((raw, index) => {
    const line = index + 1
    if (raw.trim() === "") return
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(raw)
    if (meta !== null) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string]
      if (!metricName.test(name)) throw new Error(`line ${line}: bad metric name ${name}`)
      if (kind === "HELP") help.set(name, rest)
      else {
        if (!types.has(rest)) throw new Error(`line ${line}: unknown type ${rest}`)
        if (families.has(name)) throw new Error(`line ${line}: TYPE of ${name} given twice`)
        current = { name, type: rest as Family["type"], help: help.get(name), samples: [] }
        families.set(name, current)
      }
      return
    }
    if (raw.startsWith("#")) return
    const nameEnd = raw.search(/[{ ]/)
    const name = raw.slice(0, nameEnd)
    if (nameEnd < 0 || !metricName.test(name)) throw new Error(`line ${line}: bad sample: ${raw}`)
    const [labels, end] = raw[nameEnd] === "{" ? labelsAt(raw, nameEnd, line) : [{}, nameEnd]
    const fields = raw.slice(end).trim().split(/ +/)
    if (fields.length < 1 || fields.length > 2 || fields[0] === "") throw new Error(`line ${line}: bad sample: ${raw}`)
    if (fields.length === 2 && !/^-?\d+$/.test(fields[1]!)) throw new Error(`line ${line}: bad timestamp: ${raw}`)
    const family = familyOf(name, families)
    if (family === undefined) throw new Error(`line ${line}: ${name} has no TYPE before it`)
    if (family !== current) throw new Error(`line ${line}: the samples of ${family.name} are not together`)
    family.samples.push({ name, labels, value: number(fields[0]!, line) })
  })
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family)
  return families
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none. */
export const valueOf = (
  families: Map<string, Family>,
  name: string,
  labels: Readonly<Record<string, string>> = {}
): number => {
  const matching = [...families.values()].flatMap((family) => family.samples).filter((sample) =>
    sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  )
  if (matching.length > 1) throw new Error(`${matching.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return matching[0]?.value ?? 0
}

/** The sum of the samples named `name` whose labels include `labels` (all of a counter's series). */
export const totalOf = (
  families: Map<string, Family>,
  name: string,
  labels: Readonly<Record<string, string>> = {}
): number =>
  [...families.values()].flatMap((family) => family.samples).filter((sample) =>
    sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  ).reduce((total, sample) => total + sample.value, 0)
