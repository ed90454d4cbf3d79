/**
 * Serves the application on a real socket (127.0.0.1, free port) inside the calling test's scope,
 * so the handlers run with the test's services (TestClock included).
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as HttpServer from "@effect/platform/HttpServer"
import { Converter } from "@pdf-transform/converter/Converter"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import { Context, Effect, Layer, Redacted } from "effect"
import type { Scope } from "effect"
import type { Resolve } from "../src/internal/addresses.js"
import * as InternalApp from "../src/internal/app.js"
import * as InternalOptions from "../src/internal/options.js"
import type { AppOptions } from "../src/Server.js"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import { raw } from "./utils.js"
import type { RawRequest, RawResponse } from "./utils.js"

export const key = "test-key-1"
export const otherKey = "test-key-2"
export const bearer = { authorization: `Bearer ${key}` }
export const otherBearer = { authorization: `Bearer ${otherKey}` }

export interface Harness {
  readonly base: string
  readonly state: InternalApp.AppState
  readonly request: (request: RawRequest) => Effect.Effect<RawResponse>
}

export const serve = (
  options: Partial<AppOptions> = {},
  converter: ConverterModule.Service = SimulatedConverter.make({ duration: "1 second", progressSteps: 4 }),
  internal: { readonly resolve?: Resolve } = {}
): Effect.Effect<Harness, never, Scope.Scope> =>
  Effect.gen(function*() {
    const context = yield* Layer.build(NodeHttpServer.layerTest).pipe(Effect.orDie)
    const httpServer = Context.get(context, HttpServer.HttpServer)
    const address = httpServer.address
    const base = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "http://127.0.0.1"
    const resolved = InternalOptions.resolve({
      keys: [Redacted.make(key), Redacted.make(otherKey)],
      publicUrl: base,
      ...options
    }, internal)
    const { app, state } = yield* InternalApp.makeApp(resolved).pipe(Effect.provideService(Converter, converter))
    yield* httpServer.serve(app)
    return { base, state, request: (request) => Effect.promise(() => raw(base, request)) }
  })
