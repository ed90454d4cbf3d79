// The loader hook of recordLoads.mjs (it runs on the loaders' thread, which shares the environment).
import * as Fs from "node:fs"

export const load = (url, context, next) => {
  Fs.appendFileSync(process.env.LOADED_MODULES, url + "\n")
  return next(url, context)
}
