import * as ConverterLive from "@pdf-transform/converter/ConverterLive"
import { Effect } from "effect"
import * as Fs from "node:fs"
const file = process.argv[2]!
const bytes = new Uint8Array(Fs.readFileSync(file))
const c = ConverterLive.makeInProcess()
await Effect.runPromise(c.toMarkdown(bytes))
const t = performance.now()
for (let i = 0; i < 3; i++) await Effect.runPromise(c.toMarkdown(bytes))
console.log("ms per conversion", ((performance.now() - t) / 3).toFixed(0))
