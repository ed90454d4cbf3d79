/** Our client over `NodeHttpClient.layerUndici` (the loopback benchmark). */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { run } from "./client.js"

run(NodeHttpClient.layerUndici)
