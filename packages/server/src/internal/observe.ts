/** Each request's route, key and task, noted by the handlers as they learn them, with its status and duration. */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { Recorder } from "./metrics.js"

/** What a request is about, filled in while it is answered. */
export interface Notes {
  /** The route's pattern (`/v1/pdf-transform-markdown/result/:taskId`), never the path itself. */
  route: string | undefined
  /** The key's id (`key#1` or its name), never the key. */
  key: string | undefined
  task: string | undefined
}

/**
 * Observed requests' notes, by the Node request under them (stable where the router hands on a
 * modified request): providing a service per request copied the fiber's whole context each time.
 */
const observing = new WeakMap<object, Notes>()

const notesOf = (context: Context.Context<never>): Notes | undefined => {
  const request = Context.getOption(context, HttpServerRequest.HttpServerRequest)
  const source = request._tag === "Some" ? request.value.source : undefined
  return typeof source === "object" && source !== null ? observing.get(source) : undefined
}

/** Notes `fields` on the current request, if it is being observed. */
export const note = (fields: Partial<Notes>): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => {
    const notes = notesOf(fiber.currentContext)
    if (notes !== undefined) Object.assign(notes, fields)
    return Effect.void
  })

/** A router middleware: each route notes its pattern, and the task its `:taskId` names. */
export const noteRoute = <E, R>(
  handler: HttpRouter.Route.Middleware<E, R>
): HttpRouter.Route.Middleware<E, R> =>
  // Read from the fiber's context in one step: this runs on every request.
  Effect.withFiberRuntime((fiber) => {
    const notes = notesOf(fiber.currentContext)
    if (notes !== undefined) {
      const { params, route } = Context.unsafeGet(fiber.currentContext, HttpRouter.RouteContext)
      notes.route = route.path
      if (params["taskId"] !== undefined) notes.task = params["taskId"]
    }
    return handler
  })

/** `app`, with each request's route, status and duration recorded in the metrics, a log line, or both. */
export const observed = (
  app: HttpApp.Default<never, never>,
  { log, recorder }: { readonly recorder: Recorder | undefined; readonly log: boolean }
): HttpApp.Default<never, never> =>
  // Plain steps on the fiber, one continuation: this runs on every request, and the metrics' own cost is watched.
  Effect.withFiberRuntime((fiber) => {
    const { method, source } = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const clock = Context.get(fiber.currentDefaultServices, Clock.Clock)
    const notes: Notes = { route: undefined, key: undefined, task: undefined }
    if (typeof source === "object" && source !== null) observing.set(source, notes)
    const started = clock.unsafeCurrentTimeNanos()
    return Effect.flatMap(app, (response) => {
      const seconds = Number(clock.unsafeCurrentTimeNanos() - started) / 1e9
      const route = notes.route ?? "unmatched"
      recorder?.request(route, method, response.status, seconds)
      if (!log) return Effect.succeed(response)
      return Effect.as(
        Effect.logInfo("request").pipe(Effect.annotateLogs({
          method,
          route,
          status: response.status,
          durationMs: Math.round(seconds * 1e4) / 10,
          ...(notes.key === undefined ? {} : { key: notes.key }),
          ...(notes.task === undefined ? {} : { taskId: notes.task })
        })),
        response
      )
    })
  })
