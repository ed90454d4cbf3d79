/** The web page's files (`web/dist`, built at install by `web/build.mjs`), read once at start. */
import * as Effect from "effect/Effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

export interface Asset {
  readonly body: Uint8Array
  readonly contentType: string
  readonly etag: string
}

export type Assets = ReadonlyMap<string, Asset>

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".txt": "text/plain; charset=utf-8"
}

/** Beside a bundle that ships them (the command's `dist/web`), the sources, or the build. */
const candidates = (): ReadonlyArray<string> =>
  ["./web/", "../../web/dist/", "../../../web/dist/"].map((relative) =>
    fileURLToPath(new URL(relative, import.meta.url))
  )

export const locate = (): string | undefined => candidates().find((dir) => Fs.existsSync(Path.join(dir, "index.html")))

export const load = (dir: string | undefined = locate()): Effect.Effect<Assets, string> =>
  dir === undefined
    ? Effect.fail("the web page is not built (run `pnpm install`, or `node web/build.mjs` in the server package)")
    : Effect.try({
      try: () => {
        const assets = new Map<string, Asset>()
        for (const name of Fs.readdirSync(dir)) {
          const type = contentTypes[Path.extname(name)]
          if (type === undefined) continue
          const body = Fs.readFileSync(Path.join(dir, name))
          const etag = `"${Crypto.createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`
          assets.set(name, { body, contentType: type, etag })
        }
        if (!assets.has("index.html")) throw new Error("no index.html")
        return assets
      },
      catch: (cause) => `the web page's files in ${dir} could not be read: ${String(cause)}`
    })
