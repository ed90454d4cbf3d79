/**
 * The Schedules the client polls with, for reuse in your own loops: the delays between polls
 * that `PollOptions` describe, and `progressAware`, which moves the next poll to just after the
 * completion time that a rising `progress` predicts.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as Interval from "effect/ScheduleInterval"
import { defaults, millis } from "./internal/defaults.js"
import type { PollOptions } from "./PdfTransformClient.js"

/**
 * What `progressAware` reads from each input: any `Status` fits.
 *
 * @since 0.1.0
 * @category models
 */
export interface Progressing {
  readonly progress?: number | undefined
}

/**
 * @since 0.1.0
 * @category options
 */
export interface ProgressAwareOptions {
  /** The shortest delay an estimate may ask for. */
  readonly min: Duration.DurationInput
  /** The longest; by default, the delay the underlying schedule asks for at that step. */
  readonly max?: Duration.DurationInput | undefined
  /**
   * How long after the estimated completion to poll (default: 1 % of the estimated duration, at
   * most 250 ms: a few milliseconds for a task of a second, where a fixed quarter second would
   * add half its time again).
   */
  readonly margin?: Duration.DurationInput | undefined
  /** Epoch milliseconds at which the task was at progress 0 (its submit): the first sample. */
  readonly startedAt?: number | undefined
}

/** How far progress must have risen in a run, in points, before its rate says anything. */
const minimumRise = 5

interface Sample {
  readonly at: number
  readonly progress: number
}

/** A run of rising progress: its first and its newest sample. Progress going backwards starts a new run. */
interface Run {
  readonly first: Sample
  readonly last: Sample
}

const observe = (run: Run | undefined, at: number, progress: number | undefined): Run | undefined => {
  if (progress === undefined || !Number.isFinite(progress) || progress < 0 || progress > 100) return run
  const sample = { at, progress }
  return run === undefined || progress < run.last.progress ? { first: sample, last: sample } : { ...run, last: sample }
}

/**
 * When progress should reach 100, as a window, once the run allows a guess: once it has risen by
 * `minimumRise` points. Progress comes in whole points, which a server rounds down (or to the
 * nearest): a reading of 9 at 50 ms after the submit may be 9.0 (completion at 556 ms) or 9.99
 * (at 500 ms). The window is the earliest and the latest completion those readings allow, taking
 * each reading as up to one point short and the anchor at the submit as exact.
 */
const completionWindow = (run: Run | undefined, anchored: boolean): Window | undefined => {
  if (run === undefined) return undefined
  const { first, last } = run
  const rise = last.progress - first.progress
  if (last.at <= first.at || rise < minimumRise || last.progress >= 100) return undefined
  const span = last.at - first.at
  const exactStart = anchored && first.progress === 0
  const late = last.at + (100 - last.progress) * span / rise
  const early = last.at + Math.max(0, 100 - last.progress - 1) * span / (rise + (exactStart ? 1 : 2))
  return { early, late }
}

interface Window {
  readonly early: number
  readonly late: number
}

interface Estimate {
  /** Clock time of the step. */
  readonly at: number
  readonly window: Window | undefined
  /** Clock time of the first sample of the run the estimate comes from. */
  readonly since: number
}

/** Recurs at once, forever, estimating the completion time from the progress of its inputs. */
const estimates = (startedAt: number | undefined): Schedule.Schedule<Estimate, Progressing> => {
  const anchor = { at: startedAt ?? 0, progress: 0 }
  return Schedule.makeWithState<Run | undefined, Progressing, Estimate>(
    startedAt === undefined ? undefined : { first: anchor, last: anchor },
    (now, input, run) => {
      const next = observe(run, now, input.progress)
      const estimate = {
        at: now,
        window: completionWindow(next, startedAt !== undefined),
        since: next?.first.at ?? now
      }
      return Effect.succeed([next, estimate, ScheduleDecision.continueWith(Interval.after(now))])
    }
  )
}

/**
 * Polls just after the estimated completion instead of when `self` says, once two samples of a
 * rising progress allow an estimate; never sooner than `min`, never later than `max` (by default,
 * `self`'s own delay). The schedule ends when `self` ends.
 *
 * @since 0.1.0
 * @category combinators
 */
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
  const fixedMargin = options.margin === undefined ? undefined : millis(options.margin)
  const maxMargin = millis(defaults.progressMargin)
  return Schedule.intersect(self, estimates(options.startedAt)).pipe(
    Schedule.modifyDelay(([_, estimate], delay) => {
      const window = estimate.window
      if (window === undefined) return delay
      const margin = fixedMargin ??
        Math.min(maxMargin, (window.late - estimate.since) * defaults.progressMarginShare)
      // Just after the window's end, unless a poll inside it can win time: one at `inside` finds
      // the task done if it finished by then, and otherwise narrows the window to about a point
      // while the next poll, `min` later, still lands no later than the end would have. Within
      // the window's first half at most, so that a wide one is halved rather than searched from its end.
      const end = window.late + margin
      const inside = Math.min((window.early + window.late) / 2, end - min)
      const target = window.late - window.early <= 2 * margin || inside < window.early ? end : inside
      const upper = Math.max(max ?? Duration.toMillis(delay), min)
      // Whole milliseconds, as every other delay of the client.
      return Duration.millis(Math.ceil(Math.min(Math.max(target - estimate.at, min), upper)))
    }),
    Schedule.map(([out]) => out)
  )
})

/**
 * The delays between polls that `options` describe (the client's defaults where absent):
 * exponential from `initialInterval` by `factor` up to `maxInterval`, jittered, or
 * `options.schedule`; progress-aware unless `progressAware: false`, anchored at the task's submit.
 * The deadline is not part of it: the client applies it around the whole wait.
 *
 * @since 0.1.0
 * @category schedules
 */
export const delays = (
  options: PollOptions = {},
  task: { readonly submittedAt?: number | undefined } = {}
): Schedule.Schedule<unknown, Progressing> => {
  const initial = millis(options.initialInterval ?? defaults.poll.initialInterval)
  const max = Math.max(initial, millis(options.maxInterval ?? defaults.poll.maxInterval))
  const plain = Schedule.exponential(Duration.millis(initial), options.factor ?? defaults.poll.factor).pipe(
    Schedule.union(Schedule.spaced(Duration.millis(max)))
  )
  const base = options.schedule ?? ((options.jitter ?? defaults.poll.jitter) ? Schedule.jittered(plain) : plain)
  if (!(options.progressAware ?? defaults.poll.progressAware)) return base
  return progressAware(base, {
    min: Duration.millis(initial),
    // A schedule of the caller's own also bounds the estimates; the figures' maximum bounds them otherwise.
    max: options.schedule === undefined ? Duration.millis(max) : undefined,
    startedAt: task.submittedAt
  })
}
