/** Whether the service can be reached: any answer says yes, a connection failing before sending says no. */
import type { TransportError } from "@pdf-transform/core/PdfTransformError"
import * as Retry from "@pdf-transform/core/Retry"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as SynchronizedRef from "effect/SynchronizedRef"
import type { BatchEvent } from "../BatchEvent.js"
import { StopReason } from "../BatchEvent.js"
import type { Stop } from "./context.js"

/** Tries before giving up on a service that never answered. */
export const firstContactTries = 3

/** Time from the first failure before giving up on a service that never answered. */
export const firstContactMs = 5_000

/** Failures closer together than this count as one try (several requests failing at once). */
const sameTryMs = 500

/** The delays between tries: core's backoff, stepped once per try. */
const backoff = Retry.backoff({ initial: "1 second", max: "30 seconds" })

export interface Reachability {
  /** An answer came (any status): the service is reachable. */
  readonly answered: Effect.Effect<void>
  /** A connection failed before anything was sent. */
  readonly failed: (error: TransportError) => Effect.Effect<Option.Option<number>>
}

interface State {
  readonly answered: boolean
  /** When the current run of failures began; undefined while the service answers. */
  readonly downSince: number | undefined
  /** Tries that failed in the current run of failures. */
  readonly tries: number
  readonly lastTryAt: number
  /** When the next try is due. */
  readonly retryAt: number
  /** Where the backoff schedule stands in the current run of failures. */
  readonly backoff: unknown
}

const reachable: State = {
  answered: false,
  downSince: undefined,
  tries: 0,
  lastTryAt: Number.NEGATIVE_INFINITY,
  retryAt: 0,
  backoff: backoff.initial
}

export const make = (options: {
  readonly baseUrl: string
  readonly maxOutageMs: number
  readonly stop: Stop
  readonly emit: (event: BatchEvent) => Effect.Effect<void>
}): Effect.Effect<Reachability> =>
  Effect.map(SynchronizedRef.make(reachable), (state) => ({
    answered: Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.flatMap(
        SynchronizedRef.modify(state, (current): [number | undefined, State] => [
          current.downSince === undefined ? undefined : now - current.downSince,
          current.answered && current.downSince === undefined ? current : { ...reachable, answered: true }
        ]),
        (downMs) => downMs === undefined ? Effect.void : options.emit({ _tag: "ServiceReachable", downMs })
      )),
    failed: (error) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const [newTry, current] = yield* SynchronizedRef.modifyEffect(
          state,
          (current): Effect.Effect<[readonly [boolean, State], State]> => {
            const downSince = current.downSince ?? now
            if (now - current.lastTryAt < sameTryMs) {
              const same = { ...current, downSince }
              return Effect.succeed([[false, same], same])
            }
            return Effect.map(backoff.step(now, undefined, current.backoff), ([next, delay]) => {
              const tried = {
                ...current,
                downSince,
                tries: current.tries + 1,
                lastTryAt: now,
                retryAt: now + Math.round(Duration.toMillis(delay)),
                backoff: next
              }
              return [[true, tried], tried]
            })
          }
        )
        const outageMs = now - (current.downSince ?? now)
        const giveUp = current.answered
          ? outageMs >= options.maxOutageMs
          : current.tries >= firstContactTries || outageMs >= firstContactMs
        if (giveUp) {
          yield* options.stop.stop(
            StopReason.Unreachable({ baseUrl: options.baseUrl, error, outageMs: current.answered ? outageMs : 0 })
          )
          return Option.none()
        }
        if (newTry) {
          yield* options.emit({
            _tag: "ServiceUnreachable",
            error,
            since: current.downSince ?? now,
            retryInMs: current.retryAt - now,
            answeredBefore: current.answered
          })
        }
        return Option.some(current.retryAt)
      })
  }))
