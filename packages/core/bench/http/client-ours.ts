/** Our client over our own `UndiciHttpClient.layer`, the recommended layer (the loopback benchmark). */
import * as UndiciHttpClient from "../../src/UndiciHttpClient.js"
import { run } from "./client.js"

run(UndiciHttpClient.layer)
