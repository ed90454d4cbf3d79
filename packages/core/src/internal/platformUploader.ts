/** An `Uploader` over the platform's `HttpClient` and `FileSystem` (for paths), both resolved when it is built. */
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Uploader from "../Uploader.js"

export const make = (
  build: (client: HttpClient.HttpClient, fs: FileSystem.FileSystem) => Parameters<typeof Uploader.make>[0]
): Effect.Effect<Uploader.Service, never, HttpClient.HttpClient | FileSystem.FileSystem> =>
  Effect.map(
    Effect.all([HttpClient.HttpClient, FileSystem.FileSystem]),
    ([client, fs]) => Uploader.make(build(client, fs))
  )
