/**
 * `pdf-transform status` and `pdf-transform download`: one task of a remote service, by its
 * sessionID (the embedded server's tasks end with the run that made them).
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Path from "@effect/platform/Path"
import * as Contract from "@pdf-transform/core/Contract"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import * as Output from "@pdf-transform/stream/Output"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { UsageError } from "../../CliError.js"
import * as ExitCode from "../../ExitCode.js"
import type * as Messages from "../../Messages.js"
import * as Backend from "../backend.js"
import { conclude } from "../conclude.js"
import * as Display from "../display.js"
import { bytes } from "../lines.js"

export interface Flags {
  readonly sessionId: string
  readonly to: Contract.Format
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  readonly baseUrl: Option.Option<string>
  readonly json: boolean
}

export interface DownloadFlags extends Flags {
  readonly out: string
  readonly timeout: Option.Option<Duration.Duration>
}

const decodeSessionId = Schema.decodeUnknownEither(Contract.SessionId)

/** The client of the service the task lives on, and the task's handle. */
const connect = (flags: Flags) =>
  Effect.gen(function*() {
    const backend = yield* Backend.choose({ ...flags, uploadBaseUrl: Option.none() })
    if (backend._tag === "Embedded") {
      return yield* new UsageError({
        message: "A task lives on the service it was submitted to: give its --base-url and --api-key " +
          "(or PDF_TRANSFORM_BASE_URL and PDF_TRANSFORM_API_KEY). Tasks of the embedded server end with its run"
      })
    }
    const sessionId = decodeSessionId(flags.sessionId)
    if (Either.isLeft(sessionId)) return yield* new UsageError({ message: "The sessionID must not be empty" })
    const client = yield* PdfTransformClient.make({ baseUrl: backend.baseUrl, apiKey: backend.apiKey })
    return { client, task: PdfTransformClient.task(flags.to, sessionId.right), service: backend.baseUrl }
  })

/** The HTTP client lives as long as the command: its connections close when it ends. */
const finish = <E extends Messages.Explainable, R>(
  effect: Effect.Effect<ExitCode.ExitCode, E, R>,
  service: () => string | undefined
) => conclude(Effect.provide(effect, NodeHttpClient.layerUndici), () => ({ service: service() }))

const describeStatus = (status: PdfTransformClient.Status): string => {
  if ("error" in status && typeof status.error === "string") return `failed: ${status.error}`
  const progress = status.progress === undefined ? "" : ` ${Math.floor(status.progress)}%`
  if ("data" in status) return `completed${progress}; download URL: ${status.data.downloadURL}`
  return `${status.state}${progress}`
}

/** One poll of the task: its state (and download URL, or reason), exit code 1 when it failed. */
export const status = (flags: Flags) => {
  let service: string | undefined
  return finish(
    Effect.gen(function*() {
      const { client, task, ...rest } = yield* connect(flags)
      service = rest.service
      const current = yield* client.status(task)
      process.stdout.write(
        flags.json ?
          `${JSON.stringify({ sessionId: task.sessionId, format: task.format, ...current })}\n` :
          `Task ${task.sessionId} (${task.format}): ${describeStatus(current)}\n`
      )
      return current.state === "failed" ? ExitCode.ExitCode.failed : ExitCode.ExitCode.ok
    }),
    () => service
  )
}

/** Waits for the task to complete (progress on stderr), then writes its output to `--out`, whole or not at all. */
export const download = (flags: DownloadFlags) => {
  let service: string | undefined
  return finish(
    Effect.gen(function*() {
      const path = yield* Path.Path
      const { client, task, ...rest } = yield* connect(flags)
      service = rest.service
      const poll = Option.match(flags.timeout, { onNone: () => ({}), onSome: (deadline) => ({ deadline }) })
      const last = yield* client.watch(task, poll).pipe(
        Stream.tap((current) =>
          PdfTransformClient.isTerminal(current) ?
            Effect.void :
            Effect.sync(() => process.stderr.write(`Task ${task.sessionId}: ${describeStatus(current)}\n`))
        ),
        Stream.runLast
      )
      if (Option.isNone(last) || !PdfTransformClient.isTerminal(last.value)) {
        return yield* Effect.dieMessage("the watch ended before a terminal status")
      }
      const completed = yield* PdfTransformClient.completion(task, last.value)
      const target = path.resolve(flags.out)
      const written = yield* Output.writeAtomically(target, client.download(completed))
      const shown = Display.relativePath(process.cwd())(target)
      process.stdout.write(
        flags.json ?
          `${JSON.stringify({ sessionId: task.sessionId, format: task.format, output: target, bytes: written })}\n` :
          `Saved ${shown} (${bytes(written)})\n`
      )
      return ExitCode.ExitCode.ok
    }),
    () => service
  )
}
