// Preloaded with `--import` by the startup test: appends the URL of every module the process loads
// (ES modules through a loader hook, CommonJS through Module._load) to the file named by LOADED_MODULES.
import * as Fs from "node:fs"
import Module, { isBuiltin, register } from "node:module"
import { pathToFileURL } from "node:url"

const file = process.env.LOADED_MODULES
if (file !== undefined) {
  register("./recordLoadsHooks.mjs", import.meta.url)
  const load = Module._load
  Module._load = function(request, parent, isMain) {
    if (!isBuiltin(request)) {
      let resolved
      try {
        resolved = pathToFileURL(Module._resolveFilename(request, parent, isMain)).href
      } catch {
        // Not found (an optional dependency): Module._load below reports it as it would have.
        resolved = `unresolved:${request}`
      }
      Fs.appendFileSync(file, resolved + "\n")
    }
    return load.apply(this, arguments)
  }
}
