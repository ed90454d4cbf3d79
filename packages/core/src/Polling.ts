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
 * Epoch milliseconds at which progress should reach 100, when the run allows a guess: once it has
 * risen by `minimumRise` points. Before that the rate says little (progress comes in whole
 * points: 2 after 10 ms of a 500 ms task puts the completion at 500 ms, and 1 or 3 at 1,000 or
 * 333 ms); after it, a point more or less moves the guess by at most a fifth.
 */
const eta = (run: Run | undefined): number | undefined => {
  if (run === undefined) return undefined
  const { first, last } = run
  if (last.at <= first.at || last.progress - first.progress < minimumRise || last.progress >= 100) return undefined
  const rate = (last.progress - first.progress) / (last.at - first.at)
  return last.at + (100 - last.progress) / rate
}

interface Estimate {
  /** Clock time of the step. */
  readonly at: number
  readonly eta: number | undefined
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
      const estimate = { at: now, eta: eta(next), since: next?.first.at ?? now }
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
      if (estimate.eta === undefined) return delay
      const margin = fixedMargin ??
        Math.min(maxMargin, (estimate.eta - estimate.since) * defaults.progressMarginShare)
      const upper = Math.max(max ?? Duration.toMillis(delay), min)
      // Whole milliseconds, as every other delay of the client.
      return Duration.millis(Math.ceil(Math.min(Math.max(estimate.eta - estimate.at + margin, min), upper)))
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
