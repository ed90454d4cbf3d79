/** Durations as a person types them on a command line: `90s`, `10m`, `1.5h`, `500ms`, `30`. */
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"

const units: Record<string, number> = {
  ms: 1,
  s: 1_000,
  sec: 1_000,
  second: 1_000,
  seconds: 1_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000
}

const pattern = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/

/** A plain number is seconds; a unit is `ms`, `s`, `m`, `h` or their long names. Zero and negatives are refused. */
export const parse = (text: string): Either.Either<Duration.Duration, string> => {
  const match = pattern.exec(text.trim().toLowerCase())
  const unit = match?.[2] === "" ? "s" : match?.[2]
  const factor = unit === undefined ? undefined : units[unit]
  if (match === null || factor === undefined) {
    return Either.left(`"${text}" is not a duration (write it like 90s, 10m, 1h or 500ms)`)
  }
  const millis = Number(match[1]) * factor
  if (!(millis > 0) || !Number.isFinite(millis)) return Either.left(`"${text}" must be longer than zero`)
  return Either.right(Duration.millis(Math.round(millis)))
}

/** A short form for messages: `850 ms`, `12.3 s`, `4 min 05 s`, `2 h 03 min`. */
export const short = (millis: number): string => {
  if (millis < 1_000) return `${Math.max(0, Math.round(millis))} ms`
  if (millis < 60_000) return `${(millis / 1_000).toFixed(1)} s`
  const seconds = Math.round(millis / 1_000)
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`
  const minutes = Math.round(seconds / 60)
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`
}

/** A clock for the live view: `0:07`, `12:34`, `1:02:03`. */
export const clock = (millis: number): string => {
  const total = Math.max(0, Math.floor(millis / 1_000))
  const hours = Math.floor(total / 3_600)
  const minutes = Math.floor((total % 3_600) / 60)
  const seconds = String(total % 60).padStart(2, "0")
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`
}
