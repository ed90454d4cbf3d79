/** Our client over `FetchHttpClient.layer` (the loopback benchmark). */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { run } from "./client.js"

run(FetchHttpClient.layer)
