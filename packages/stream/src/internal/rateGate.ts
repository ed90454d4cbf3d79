/** The pace every submitter of a batch shares. */
import * as RateLimit from "@pdf-transform/core/RateLimit"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"

export interface RateGate {
  /** Waits until a submit may go (no pause, room in every window), then counts it. */
  readonly take: Effect.Effect<void>
  /** Counts a submit that may go now and answers 0; otherwise answers how long to wait before asking again. */
  readonly tryTake: Effect.Effect<number>
  /** Waits until no pause is in force (counting nothing). */
  readonly pass: Effect.Effect<void>
  /** What an answer to a submit said: windows learnt or changed, units the service already counts. */
  readonly observe: (info: RateLimit.RateLimitInfo) => Effect.Effect<void>
  /** Pauses every submitter until `epochMs` (Clock time); an earlier pause never shortens a later one. */
  readonly pauseUntil: (epochMs: number) => Effect.Effect<void>
  /** The Clock time the current pause ends at (0 when none was ever set). */
  readonly resumesAt: Effect.Effect<number>
}

/** Larger quotas are not paced send by send (too many timestamps); their `r=0` still pauses until the reset. */
export const maxPacedQuota = 10_000

/** A window's widening, as a share of its length: the service's window may be a little off ours. */
const slack = 0.02

/** One request window of the service: `quota` per `windowMs`, and the latest sends it counts. */
interface Window {
  readonly quota: number
  readonly windowMs: number
  /** Clock times of the last `quota` sends it counts, oldest first (ours, and units the service said it had counted). */
  readonly sent: ReadonlyArray<number>
}

interface State {
  readonly windows: ReadonlyMap<string, Window>
  readonly resumesAt: number
}

/** How long after `now` a window has room for one more send (0: now). */
const roomIn = (window: Window, now: number): number => {
  if (window.sent.length < window.quota) return 0
  const oldest = window.sent[window.sent.length - window.quota]!
  return Math.max(0, Math.ceil(oldest + window.windowMs * (1 + slack) - now))
}

/** The sends still inside a window of `windowMs` at `now`, at most `quota` of them, oldest first. */
const recent = (sent: ReadonlyArray<number>, quota: number, windowMs: number, now: number): ReadonlyArray<number> => {
  const inside = sent.filter((at) => at > now - windowMs * (1 + slack))
  return inside.length > quota ? inside.slice(inside.length - quota) : inside
}

/** Learns from one answer. */
const learn = (state: State, info: RateLimit.RateLimitInfo, now: number): State => {
  const windows = new Map(state.windows)
  for (const policy of info.policies) {
    if (policy.unit === RateLimit.concurrentRequests || policy.window === undefined || policy.window <= 0) continue
    if (policy.quota < 1 || policy.quota > maxPacedQuota) {
      windows.delete(policy.name)
      continue
    }
    const windowMs = policy.window * 1000
    const known = windows.get(policy.name)
    let sent = recent(known?.sent ?? [], policy.quota, windowMs, now)
    const reported = info.states.find((s) => s.name === policy.name)
    if (reported !== undefined) {
      const used = Math.max(0, policy.quota - reported.remaining)
      if (used > sent.length) {
        const leaves = reported.reset === undefined ? now : now + Math.min(reported.reset * 1000, windowMs)
        const counted = Math.min(now, leaves - windowMs * (1 + slack))
        sent = [...Array.from({ length: used - sent.length }, () => counted), ...sent].sort((a, b) => a - b)
      }
    }
    windows.set(policy.name, { quota: policy.quota, windowMs, sent })
  }
  // A spent quota with no window to pace by (the answer named no `w`): wait for its reset.
  const unpaced: RateLimit.RateLimitInfo = {
    policies: info.policies,
    states: info.states.filter((s) => !windows.has(s.name))
  }
  const reset = RateLimit.resetDelay(unpaced)
  const resumesAt = Option.isSome(reset) ? Math.max(state.resumesAt, now + reset.value) : state.resumesAt
  return { windows, resumesAt }
}

export const make: Effect.Effect<RateGate> = Effect.map(
  Ref.make<State>({ windows: new Map(), resumesAt: 0 }),
  (state) => {
    const tryTake: Effect.Effect<number> = Effect.flatMap(
      Clock.currentTimeMillis,
      (now) =>
        Ref.modify(state, (current): [number, State] => {
          let wait = Math.max(0, current.resumesAt - now)
          for (const window of current.windows.values()) wait = Math.max(wait, roomIn(window, now))
          if (wait > 0 || current.windows.size === 0) return [wait, current]
          const windows = new Map<string, Window>()
          for (const [name, window] of current.windows) {
            windows.set(name, {
              ...window,
              sent: [...recent(window.sent, window.quota - 1, window.windowMs, now), now]
            })
          }
          return [0, { ...current, windows }]
        })
    )
    // Sleep, then look again: others may have taken the room meanwhile, or a pause begun.
    const take: Effect.Effect<void> = Effect.flatMap(
      tryTake,
      (wait) => wait === 0 ? Effect.void : Effect.zipRight(Effect.sleep(wait), take)
    )
    const pass: Effect.Effect<void> = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.flatMap(
        Ref.get(state),
        (current) =>
          current.resumesAt <= now ?
            Effect.void :
            Effect.zipRight(Effect.sleep(current.resumesAt - now), pass)
      ))
    return {
      take,
      tryTake,
      pass,
      observe: (info) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.update(state, (current) => learn(current, info, now))),
      pauseUntil: (epochMs) =>
        Ref.update(
          state,
          (current) =>
            Number.isFinite(epochMs) && epochMs > current.resumesAt ? { ...current, resumesAt: epochMs } : current
        ),
      resumesAt: Effect.map(Ref.get(state), (current) => current.resumesAt)
    }
  }
)
