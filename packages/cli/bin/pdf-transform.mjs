#!/usr/bin/env node
// The command is the bundle in ../dist, built by `pnpm install` (this package's prepare script)
// or `pnpm --filter @pdf-transform/cli build`. Help and --version come from its cache (help.mjs).
import * as Fs from "node:fs"
import { printCached } from "./help.mjs"

if (!printCached(process.argv.slice(2))) {
  const bundle = new URL("../dist/bin.js", import.meta.url)
  if (!Fs.existsSync(bundle)) {
    process.stderr.write(
      "pdf-transform is not built yet: run `pnpm install` (or `pnpm --filter @pdf-transform/cli build`) first.\n"
    )
    process.exit(1)
  }
  await import(bundle.href)
}
