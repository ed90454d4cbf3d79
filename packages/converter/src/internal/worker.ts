/**
 * Entry point of a conversion worker thread: runs the engine for each request and streams its
 * progress back to the caller.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeWorkerRunner from "@effect/platform-node/NodeWorkerRunner"
import * as WorkerRunner from "@effect/platform/WorkerRunner"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import * as Stream from "effect/Stream"
import * as Engine from "./engine.js"
import type { EngineError } from "./engine.js"
import { ConvertRequest, DoneEvent, ProgressEvent } from "./protocol.js"

const convert = (request: ConvertRequest) =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const events = yield* Mailbox.make<ProgressEvent | DoneEvent, EngineError>()
    yield* Engine.convert(request.pdf, request.format, {
      ignorePdfErrors: request.ignorePdfErrors,
      ignoreOcrErrors: request.ignoreOcrErrors,
      filename: request.filename,
      password: request.password,
      onProgress: (progress) => Effect.asVoid(events.offer(new ProgressEvent(progress)))
    }).pipe(
      Effect.flatMap((result) => events.offer(new DoneEvent({ ...result, warnings: [...result.warnings] }))),
      Mailbox.into(events),
      Effect.forkScoped
    )
    return Mailbox.toStream(events)
  }))

const Main = WorkerRunner.layerSerialized(ConvertRequest, { Convert: convert })

WorkerRunner.launch(Layer.provide(Main, NodeWorkerRunner.layer)).pipe(NodeRuntime.runMain)
