/** The implementation of `PdfTransformClient`: the HTTP edge configured once, and one module per operation. */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Contract from "../Contract.js"
import type * as Client from "../PdfTransformClient.js"
import { defaults } from "./defaults.js"
import * as download from "./download.js"
import * as exchange from "./exchange.js"
import * as poller from "./poller.js"
import * as submit from "./submit.js"
import { span } from "./tracing.js"

export const make = (options: Client.Options): Effect.Effect<Client.Service, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (raw) => {
    const baseUrl = (options.baseUrl ?? defaults.baseUrl).replace(/\/+$/, "")
    const api = raw.pipe(
      HttpClient.mapRequest((request) =>
        request.pipe(
          HttpClientRequest.prependUrl(baseUrl),
          HttpClientRequest.bearerToken(options.apiKey),
          HttpClientRequest.acceptJson
        )
      )
    )
    const requestTimeout = Duration.decode(options.requestTimeout ?? defaults.requestTimeout)
    const idleTimeout = Duration.decode(options.downloadIdleTimeout ?? defaults.downloadIdleTimeout)
    const send = exchange.send(api, requestTimeout)
    const submitTask = submit.make({ send, retry: options.submitRetry })
    const results = poller.make({ send, poll: options.poll })

    const convert = <F extends Contract.Format>(
      format: F,
      request: Contract.ConversionRequestInput,
      poll?: Client.PollOptions
    ): Effect.Effect<Client.CompletedTask<F>, Client.SubmitError | Client.AwaitError> =>
      Effect.flatMap(submitTask(format, request), (task) => results.awaitCompletion(task, poll)).pipe(
        span("PdfTransformClient.convert", { format })
      )

    const downloadEnv: download.Env = {
      // A download URL's query holds its signature, which the platform's span would record: own span instead.
      raw: HttpClient.withTracerDisabledWhen(raw, () => true),
      requestTimeout,
      idleTimeout,
      status: results.status
    }

    return {
      baseUrl,
      submit: submitTask,
      status: results.status,
      awaitCompletion: results.awaitCompletion,
      watch: results.watch,
      convert,
      download: download.make(downloadEnv),
      downloadBytes: download.makeBytes(downloadEnv)
    } satisfies Client.Service
  })
