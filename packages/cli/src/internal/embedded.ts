/**
 * The embedded backend: the reference server on a free 127.0.0.1 port with a key made for this run
 * and the local converter; its data folder lets a killed run find its tasks when started again.
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import type * as Uploader from "@pdf-transform/core/Uploader"
import * as Server from "@pdf-transform/server/Server"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Crypto from "node:crypto"
import * as Os from "node:os"
import { BackendFailed } from "../CliError.js"
import * as Backend from "./backend.js"
import * as LiveConverter from "./liveConverter.js"

export const layer = (
  options: {
    readonly client: Omit<PdfTransformClient.Options, "apiKey" | "baseUrl">
    /** How many documents the command converts: no more converter workers are started than that. */
    readonly documents?: number
    readonly dataDir: string
  }
): Layer.Layer<
  PdfTransformClient.PdfTransformClient | Uploader.Uploader,
  BackendFailed,
  HttpClient.HttpClient | FileSystem.FileSystem
> =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const apiKey = Redacted.make(Crypto.randomBytes(24).toString("base64url"))
    // A worker thread is dear to start: one document is converted on this thread (it yields between
    // pages), more get a worker each up to the number of cores.
    const workers = Math.max(1, Math.min(Os.availableParallelism(), options.documents ?? Infinity))
    const converter = options.documents === 1 ?
      yield* LiveConverter.inProcess :
      // At the caller's priority: this event loop serves only this command.
      yield* Effect.flatMap(LiveConverter.load, (pool) =>
        LiveConverter.inBackground(pool({ size: workers, niceness: 0 })))
    yield* Effect.logInfo("local converter loaded")
    const server = Server.layer({
      keys: [apiKey],
      port: 0,
      host: "127.0.0.1",
      dataDir: options.dataDir,
      // One person's batch on their own machine: no rate or quota to protect, every core converts.
      limits: { rate: false, quota: false },
      conversions: { maxConcurrent: workers }
    }).pipe(
      Layer.provide(converter),
      Layer.mapError((error) =>
        new BackendFailed({ reason: error.message })
      )
    )
    const clients = Layer.unwrapEffect(Effect.map(Server.Server, ({ baseUrl }) => {
      const connection = { baseUrl, apiKey }
      return Layer.merge(
        PdfTransformClient.layer({ ...options.client, ...connection }),
        Backend.uploader(Backend.uploadRoute({ _tag: "Embedded" }), connection)
      )
    }))
    return Layer.provide(clients, server)
  }))
