/** What the benches share: their command line's flags, and another checkout's converter imported as it is. */
import { createRequire } from "node:module"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"
import { engineOptions } from "../test/support/engineOptions.js"

/** Takes `name value` out of `args` and answers the value. */
export const takeFlag = (args: Array<string>, name: string): string | undefined => {
  const index = args.indexOf(name)
  return index < 0 ? undefined : args.splice(index, 2)[1]
}

/** Takes `name` out of `args` and answers whether it was there. */
export const takeSwitch = (args: Array<string>, name: string): boolean => {
  const index = args.indexOf(name)
  if (index >= 0) args.splice(index, 1)
  return index >= 0
}

/** A checkout's converter sources (`source("internal/engine.ts")`), run by that checkout's own `effect`, and the
 * engine's options made with it. */
export const importCheckout = async (root: string) => {
  const dir = Path.join(root, "packages", "converter")
  const require = createRequire(Path.join(dir, "package.json"))
  const Effect = await import(pathToFileURL(require.resolve("effect/Effect")).href)
  return {
    Effect,
    source: (file: string) => import(pathToFileURL(Path.join(dir, "src", file)).href),
    options: engineOptions({ onProgress: () => Effect.void })
  }
}
