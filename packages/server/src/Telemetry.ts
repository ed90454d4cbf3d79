/**
 * Metrics (Prometheus, on a listener of their own) and traces (OTLP) through OpenTelemetry; a
 * module apart, so that nothing else needs OpenTelemetry installed.
 * @since 0.2.0
 */
import * as Metrics from "@effect/opentelemetry/Metrics"
import * as Resource from "@effect/opentelemetry/Resource"
import * as Tracer from "@effect/opentelemetry/Tracer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import type { ServeError } from "@effect/platform/HttpServerError"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Http from "node:http"
import { Server } from "./Server.js"

/**
 * @since 0.2.0
 * @category options
 */
export interface Options {
  /** The `service.name` of the metrics and spans (default `pdf-transform-server`, or `OTEL_SERVICE_NAME`). */
  readonly serviceName?: string | undefined
}

const resource = (options: Options) =>
  Resource.layerFromEnv({ "service.name": options.serviceName ?? "pdf-transform-server" })

/**
 * Spans sent to the OTLP/HTTP endpoint the standard `OTEL_EXPORTER_OTLP_*` variables name; nothing
 * when no endpoint is set.
 * @since 0.2.0
 * @category layers
 */
export const tracing = (options: Options = {}): Layer.Layer<never> =>
  Layer.unwrapEffect(Effect.sync(() => {
    const endpoint = process.env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? process.env["OTEL_EXPORTER_OTLP_ENDPOINT"]
    if (endpoint === undefined || endpoint === "") return Layer.empty
    const provider = Layer.scoped(
      Tracer.OtelTracerProvider,
      Effect.flatMap(Resource.Resource, (resource) =>
        Effect.acquireRelease(
          Effect.sync(() =>
            new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] })
          ),
          // What is still batched is sent before the process ends.
          (provider) =>
            Effect.promise(() => provider.forceFlush().then(() => provider.shutdown())).pipe(
              Effect.timeoutOption("3 seconds")
            )
        ))
    )
    return Layer.discard(Tracer.layer).pipe(Layer.provide(provider), Layer.provide(resource(options)))
  }))

/**
 * @since 0.2.0
 * @category options
 */
export interface MetricsOptions extends Options {
  readonly port: number
  /** Default 127.0.0.1: the metrics say much about the server; expose them on purpose. */
  readonly host?: string | undefined
}

/**
 * Where the metrics listener listens.
 * @since 0.2.0
 * @category tags
 */
export class MetricsListener extends Context.Tag("@pdf-transform/server/Telemetry/MetricsListener")<
  MetricsListener,
  { readonly address: HttpServer.Address }
>() {}

const exposition = "text/plain; version=0.0.4; charset=utf-8"

/**
 * `GET /metrics` on a port of its own, in the Prometheus text format (the server needs `metrics: true`).
 * @since 0.2.0
 * @category layers
 */
export const metrics = (options: MetricsOptions): Layer.Layer<MetricsListener, ServeError, Server> =>
  Layer.unwrapEffect(Effect.sync(() => {
    const exporter = new PrometheusExporter({ preventServerStart: true })
    const serializer = new PrometheusSerializer()
    const route = HttpRouter.empty.pipe(
      HttpRouter.get(
        "/metrics",
        Effect.gen(function*() {
          const server = yield* Server
          yield* server.refreshMetrics
          const { resourceMetrics } = yield* Effect.promise(() => exporter.collect())
          return HttpServerResponse.text(serializer.serialize(resourceMetrics), { contentType: exposition })
        })
      )
    )
    const listen = NodeHttpServer.layer(() => Http.createServer(), {
      port: options.port,
      host: options.host ?? "127.0.0.1"
    })
    const listening = Layer.effect(
      MetricsListener,
      Effect.map(HttpServer.HttpServer, ({ address }) => ({ address }))
    )
    // Scrapes are not traced: they would drown the spans of the work.
    const serve = HttpMiddleware.withTracerDisabledWhen(HttpServer.serve(route), () => true)
    return Layer.merge(serve, listening).pipe(
      Layer.provide(listen),
      Layer.provide(Metrics.layer(() => exporter)),
      Layer.provide(resource(options))
    )
  }))
