/** The Schedules the client polls with, including `progressAware`, for your own loops.
 * @since 0.1.0 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as Interval from "effect/ScheduleInterval"
import { defaults, millis } from "./internal/defaults.js"
import type { PollOptions } from "./PdfTransformClient.js"
import * as Retry from "./Retry.js"

/** What `progressAware` reads from each input: any `Status` fits.
 * @since 0.1.0
 * @category models */
export interface Progressing {
  readonly progress?: number | undefined
  /** Clock time the poll that read `progress` was sent (default: the step's own time). */
  readonly askedAt?: number | undefined
}

/** @since 0.1.0
 * @category options */
export interface ProgressAwareOptions {
  /** The shortest delay an estimate may ask for (but after a poll inside the window). */
  readonly min: Duration.DurationInput
  /** The shortest delay after a poll inside the window found the task running (default `min` / 5). */
  readonly followUp?: Duration.DurationInput | undefined
  /** The longest; by default, the delay the underlying schedule asks for at that step. */
  readonly max?: Duration.DurationInput | undefined
  /** How long after the estimated completion to poll (default: a share of the estimated duration). */
  readonly margin?: Duration.DurationInput | undefined
  /** Epoch milliseconds at which the task was at progress 0 (its submit): the first sample. */
  readonly startedAt?: number | undefined
  /** How far the real start may be from `startedAt`, either way (default: none, `startedAt` is exact). */
  readonly startedWithin?: Duration.DurationInput | undefined
}

/** How far progress must have risen in a run, in points, before its rate says anything. */
const minimumRise = 5

/** A reading of progress, made by the server between `from` and `at`. */
interface Sample {
  readonly from: number
  readonly at: number
  readonly progress: number
}

/** A run of rising progress: its first and its newest sample. Progress going backwards starts a new run. */
interface Run {
  readonly first: Sample
  readonly last: Sample
}

const observe = (run: Run | undefined, at: number, input: Progressing): Run | undefined => {
  const progress = input.progress
  if (progress === undefined || !Number.isFinite(progress) || progress < 0 || progress > 100) return run
  const sample = { from: Math.min(input.askedAt ?? at, at), at, progress }
  return run === undefined || progress < run.last.progress ? { first: sample, last: sample } : { ...run, last: sample }
}

/** When progress should reach 100, as a window, once it has risen by `minimumRise`. */
const completionWindow = (run: Run | undefined, anchor: Sample | undefined): Window | undefined => {
  if (run === undefined) return undefined
  const { first, last } = run
  const rise = last.progress - first.progress
  if (last.at <= first.at || rise < minimumRise || last.progress >= 100) return undefined
  // The submit, when the task's start is known: progress 0, at some time in its span.
  const anchored = anchor !== undefined && first === anchor
  // A reading happened within its sample's span: the longest elapsed time gives the latest completion.
  const late = last.at + (100 - last.progress) * (last.at - first.from) / rise
  const early = last.from +
    Math.max(0, 100 - last.progress - 1) * Math.max(0, last.from - first.at) / (rise + (anchored ? 1 : 2))
  return { early, late }
}

interface Window {
  readonly early: number
  readonly late: number
}

/** When the next poll should be, from the progress seen so far. */
interface Target {
  /** Clock time of the step. */
  readonly at: number
  /** Clock time to poll at, or none when progress allows no estimate yet. */
  readonly target: number | undefined
  /** The shortest delay allowed at this step. */
  readonly floor: number
}

interface State {
  readonly run: Run | undefined
  /** Whether the step before chose a poll inside the completion window. */
  readonly probed: boolean
}

interface Timing {
  readonly min: number
  readonly followUp: number
  readonly margin: number | undefined
  readonly maxMargin: number
}

/** Recurs at once, forever, polling just after the completion window unless a poll inside wins time. */
const targets = (anchor: Sample | undefined, timing: Timing): Schedule.Schedule<Target, Progressing> =>
  Schedule.makeWithState<State, Progressing, Target>(
    { run: anchor === undefined ? undefined : { first: anchor, last: anchor }, probed: false },
    (now, input, state) => {
      const run = observe(state.run, now, input)
      const window = completionWindow(run, anchor)
      const floor = state.probed ? timing.followUp : timing.min
      let target: number | undefined
      let probed = false
      if (window !== undefined) {
        const since = run?.first.at ?? now
        const margin = timing.margin ?? Math.min(timing.maxMargin, (window.late - since) * defaults.progressMarginShare)
        const end = window.late + margin
        const inside = Math.min((window.early + window.late) / 2, end - timing.min)
        probed = !state.probed && window.late - window.early > 2 * margin && inside >= window.early
        target = probed ? inside : end
      }
      return Effect.succeed([
        { run, probed },
        { at: now, target, floor },
        ScheduleDecision.continueWith(Interval.after(now))
      ])
    }
  )

/** Polls just after the estimated completion, never later than `max` nor sooner than `min`.
 * @since 0.1.0
 * @category combinators */
export const progressAware: {
  (
    options: ProgressAwareOptions
  ): <Out, In, R>(self: Schedule.Schedule<Out, In, R>) => Schedule.Schedule<Out, In & Progressing, R>
  <Out, In, R>(
    self: Schedule.Schedule<Out, In, R>,
    options: ProgressAwareOptions
  ): Schedule.Schedule<Out, In & Progressing, R>
} = dual(2, <Out, In, R>(
  self: Schedule.Schedule<Out, In, R>,
  options: ProgressAwareOptions
): Schedule.Schedule<Out, In & Progressing, R> => {
  const min = millis(options.min)
  const max = options.max === undefined ? undefined : millis(options.max)
  const timing: Timing = {
    min,
    followUp: Math.min(min, options.followUp === undefined ? min / 5 : millis(options.followUp)),
    margin: options.margin === undefined ? undefined : millis(options.margin),
    maxMargin: millis(defaults.progressMargin)
  }
  const within = options.startedWithin === undefined ? 0 : millis(options.startedWithin)
  const anchor = options.startedAt === undefined
    ? undefined
    : { from: options.startedAt - within, at: options.startedAt + within, progress: 0 }
  return Schedule.intersect(self, targets(anchor, timing)).pipe(
    Schedule.modifyDelay(([_, { at, floor, target }], delay) => {
      if (target === undefined) return delay
      const upper = Math.max(max ?? Duration.toMillis(delay), min)
      // Whole milliseconds, as every other delay of the client.
      return Duration.millis(Math.ceil(Math.min(Math.max(target - at, floor), upper)))
    }),
    Schedule.map(([out]) => out)
  )
})

/** The delays between polls that `options` describe, progress-aware unless turned off.
 * @since 0.1.0
 * @category schedules */
export const delays = (
  options: PollOptions = {},
  task: { readonly submittedAt?: number | undefined; readonly submitRoundTrip?: number | undefined } = {}
): Schedule.Schedule<unknown, Progressing> => {
  const initial = millis(options.initialInterval ?? defaults.poll.initialInterval)
  const max = Math.max(initial, millis(options.maxInterval ?? defaults.poll.maxInterval))
  const base = options.schedule ?? Retry.backoff({
    initial: Duration.millis(initial),
    max: Duration.millis(max),
    factor: options.factor ?? defaults.poll.factor,
    jitter: options.jitter ?? defaults.poll.jitter
  })
  if (!(options.progressAware ?? defaults.poll.progressAware)) return base
  return progressAware(base, {
    min: Duration.millis(initial),
    // A schedule of the caller's own also bounds the estimates; the figures' maximum bounds them otherwise.
    max: options.schedule === undefined ? Duration.millis(max) : undefined,
    startedAt: task.submittedAt,
    startedWithin: task.submitRoundTrip === undefined ? undefined : Duration.millis(task.submitRoundTrip / 2)
  })
}
