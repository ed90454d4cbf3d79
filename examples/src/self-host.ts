/**
 * Self-hosting the reference server: keys, port and address from the environment
 * (`PDF_TRANSFORM_SERVER_KEYS`, `PDF_TRANSFORM_SERVER_PORT`, `PDF_TRANSFORM_SERVER_HOST`, ...),
 * conversions on this machine's cores, until Ctrl-C. `pdf-transform serve` does the same from the
 * command line.
 *
 *   PDF_TRANSFORM_SERVER_KEYS=key-one tsx src/self-host.ts
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as ConverterLive from "@pdf-transform/converter/ConverterLive"
import { Server } from "@pdf-transform/server"
import { Layer } from "effect"

Server.layerConfig().pipe(Layer.provide(ConverterLive.layer()), Layer.launch, NodeRuntime.runMain)
