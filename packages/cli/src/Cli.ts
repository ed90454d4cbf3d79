/**
 * The `pdf-transform` command line: `convert`, `serve`, `status` and `download`, with help,
 * examples, `--version` and shell completions from @effect/cli. Only the definitions live here;
 * each command's work is loaded when it runs, so `--help` starts fast.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Contract from "@pdf-transform/core/Contract"
// Only modules that load nothing else: every `--help` loads what this imports (test/e2e/Startup.test.ts).
import * as ServerConfig from "@pdf-transform/server/ServerConfig"
import { defaults as BatchDefaults } from "@pdf-transform/stream/BatchDefaults"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { createRequire } from "node:module"
import * as Duration from "./internal/duration.js"

/**
 * The package's version, from its package.json (one level above both `src/` and the bundle's `dist/`).
 *
 * @since 0.1.0
 * @category constants
 */
export const version: string =
  (createRequire(import.meta.url)("../package.json") as { readonly version: string }).version

const duration = (name: string) =>
  Options.text(name).pipe(
    Options.withPseudoName("DURATION"),
    Options.mapEffect((text) =>
      Either.match(Duration.parse(text), {
        onLeft: (problem) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--${name}: ${problem}`))),
        onRight: Effect.succeed
      })
    )
  )

const format = Options.choice("to", Contract.Format.literals).pipe(
  Options.withAlias("t"),
  Options.withDescription("The output format: markdown (a .md file) or epub (an EPUB 3 book).")
)

const apiKey = Options.redacted("api-key").pipe(
  Options.withPseudoName("KEY"),
  Options.optional,
  Options.withDescription("The service's API key (default: PDF_TRANSFORM_API_KEY).")
)

const baseUrl = Options.text("base-url").pipe(
  Options.withPseudoName("URL"),
  Options.optional,
  Options.withDescription(
    "The service's base URL, ending in /v1 (default: PDF_TRANSFORM_BASE_URL; with a key and no URL, the hosted service)."
  )
)

const json = Options.boolean("json").pipe(Options.withDescription("Print one JSON object per line, for scripts."))

const verbose = Options.boolean("verbose").pipe(
  Options.withDescription("Show the service's logs and, on an internal error, its full cause.")
)

const examples = (description: string, lines: ReadonlyArray<readonly [string, string]>) =>
  HelpDoc.blocks([
    HelpDoc.p(description),
    HelpDoc.h2("EXAMPLES"),
    ...lines.flatMap(([what, command]) => [HelpDoc.p(what), HelpDoc.p(`    ${command}`)])
  ])

const convertCommand = Command.make("convert", {
  paths: Args.text({ name: "PDF, folder or URL" }).pipe(Args.atLeast(1)),
  to: format,
  out: Options.text("out").pipe(
    Options.withAlias("o"),
    Options.withPseudoName("DIR"),
    Options.withDefault("out"),
    Options.withDescription("The folder the outputs are written to (created when missing).")
  ),
  concurrency: Options.integer("concurrency").pipe(
    Options.withAlias("c"),
    Options.withPseudoName("N"),
    Options.withDefault(BatchDefaults.concurrency),
    Options.withDescription("Most documents converting at once; the service's own limits may lower it.")
  ),
  journal: Options.text("journal").pipe(
    Options.withPseudoName("FILE"),
    Options.optional,
    Options.withDescription(
      "The journal that makes a second run resume (default: .pdf-transform-journal.jsonl in --out)."
    )
  ),
  resubmitAmbiguous: Options.boolean("resubmit-ambiguous").pipe(
    Options.withDescription(
      "Submit again the documents whose earlier submit got no answer (a task may exist: it may be billed twice)."
    )
  ),
  retryFailed: Options.boolean("retry-failed").pipe(
    Options.withDescription("Submit again the documents that failed at the service in an earlier run.")
  ),
  apiKey,
  baseUrl,
  uploadBaseUrl: Options.text("upload-base-url").pipe(
    Options.withPseudoName("URL"),
    Options.optional,
    Options.withDescription(
      "Where local files are uploaded with the hosted service's chunked protocol (default for the hosted service: " +
        "https://llm.oomol.com/api/tasks/files/remote-cache; other base URLs take uploads at their own /v1/files)."
    )
  ),
  timeout: duration("timeout").pipe(
    Options.optional,
    Options.withDescription("How long to wait for each document's task (default 10m); it goes on at the service after.")
  ),
  pollInterval: duration("poll-interval").pipe(
    Options.optional,
    Options.withDescription("First delay between polls of a task (default 2s; 250ms on this machine).")
  ),
  maxOutage: duration("max-outage").pipe(
    Options.optional,
    Options.withDescription(
      "How long to wait for a service that stopped answering before giving up (default 5m); one that never " +
        "answered is given up on after three tries (about 3s)."
    )
  ),
  json,
  verbose
}, (flags) => Effect.flatMap(Effect.promise(() => import("./internal/commands/convert.js")), (m) => m.convert(flags)))
  .pipe(
    Command.withDescription(examples(
      "Converts PDFs (files, folders searched for *.pdf, or http(s) URLs) to Markdown or EPUB. With no API key and " +
        "no base URL the conversion runs on this machine: the reference server starts in this process with the local " +
        "converter. A journal in the output folder makes the same command, run again, resume instead of paying twice. " +
        "Ctrl-C once: no new documents start and the running ones finish; twice: stop now (the next run resumes). " +
        "Exit codes: 0 all converted, 1 some failed, 2 usage error, 3 API key refused, 4 quota or rate limit, " +
        "5 service unreachable, 130 Ctrl-C.",
      [
        [
          "Convert a folder on this machine, no account needed:",
          "pdf-transform convert examples/pdfs --to markdown --out out"
        ],
        ["EPUB books from two files:", "pdf-transform convert a.pdf b.pdf --to epub -o books"],
        [
          "Through the hosted service (URLs are submitted as they are):",
          "PDF_TRANSFORM_API_KEY=... pdf-transform convert https://example.org/paper.pdf --to markdown"
        ],
        [
          "Through your own reference server:",
          "pdf-transform convert docs/ --to markdown --base-url http://127.0.0.1:8787/v1 --api-key KEY"
        ],
        [
          "For scripts, one JSON event per line:",
          "pdf-transform convert docs/ --to markdown --json | jq -c 'select(.event == \"Failed\")'"
        ]
      ]
    ))
  )

/** The flag of a server setting: text, or a switch and its `--no-` form; none when not given. */
const settingFlag = (setting: ServerConfig.Setting): Options.Options<Option.Option<string>> => {
  const about = `${setting.description}${
    Option.match(setting.defaultText, {
      onNone: () => "",
      onSome: (text) => ` (default ${text})`
    })
  } Env: ${setting.env}.`
  if (!setting.isSwitch) {
    return Options.text(setting.flag).pipe(
      Options.withPseudoName(setting.pseudoName),
      Options.optional,
      Options.withDescription(about)
    )
  }
  return Options.all([
    Options.boolean(setting.flag).pipe(Options.withDescription(about)),
    Options.boolean(`no-${setting.flag}`).pipe(Options.withDescription(`Turns --${setting.flag} off.`))
  ]).pipe(Options.map(([on, off]) => on ? Option.some("true") : off ? Option.some("false") : Option.none()))
}

const serveCommand = Command.make("serve", {
  settings: Options.all(
    Object.fromEntries(ServerConfig.settings.map((setting) => [setting.flag, settingFlag(setting)] as const))
  ),
  config: Options.text("config").pipe(
    Options.withPseudoName("FILE"),
    Options.optional,
    Options.withDescription(
      "A JSON file of settings (see the server README); a flag or a variable given too wins over it. " +
        "Env: PDF_TRANSFORM_SERVER_CONFIG."
    )
  ),
  printConfig: Options.boolean("print-config").pipe(
    Options.withDescription("Print the settings the server would run with (secrets redacted) and exit.")
  ),
  simulate: duration("simulate").pipe(
    Options.optional,
    Options.withDescription("Do not convert: every task takes about this long and returns a small document.")
  ),
  verbose
}, (flags) => Effect.flatMap(Effect.promise(() => import("./internal/commands/serve.js")), (m) => m.serve(flags))).pipe(
  Command.withDescription(examples(
    "Runs the reference server of the PDF Conversion Service v1 contract until Ctrl-C.",
    [
      ["On port 8787 with a key made up for this run:", "pdf-transform serve"],
      ["Your own keys, any free port:", "pdf-transform serve --keys key-one,key-two --port 0"],
      ["Simulated conversions of 2 seconds (for trying batches at scale):", "pdf-transform serve --simulate 2s"],
      [
        "One of several nodes on a shared PostgreSQL (same keys and signing key on each):",
        "pdf-transform serve --host 10.0.0.5 --database-url postgres://pdt@db/pdt --public-url https://pdf.example.com --keys KEY"
      ]
    ]
  ))
)

const sessionId = Args.text({ name: "sessionID" }).pipe(Args.withDescription("The task's id, as submit answered it."))

const statusCommand = Command.make(
  "status",
  { sessionId, to: format, apiKey, baseUrl, json },
  (flags) => Effect.flatMap(Effect.promise(() => import("./internal/commands/task.js")), (m) => m.status(flags))
).pipe(
  Command.withDescription(examples(
    "Asks the service once how a task is doing: processing (with its progress), completed (with its download URL), " +
      "or failed (with the reason; exit code 1).",
    [["A Markdown task of the hosted service:", "PDF_TRANSFORM_API_KEY=... pdf-transform status 0b5c... --to markdown"]]
  ))
)

const downloadCommand = Command.make("download", {
  sessionId,
  to: format,
  out: Options.text("out").pipe(
    Options.withAlias("o"),
    Options.withPseudoName("FILE"),
    Options.withDescription("The file the output is written to, whole or not at all.")
  ),
  timeout: duration("timeout").pipe(
    Options.optional,
    Options.withDescription("How long to wait for the task to complete (default 10m).")
  ),
  apiKey,
  baseUrl,
  json
}, (flags) => Effect.flatMap(Effect.promise(() => import("./internal/commands/task.js")), (m) => m.download(flags)))
  .pipe(
    Command.withDescription(examples(
      "Waits for a task to complete, then writes its output to a file.",
      [[
        "An EPUB task:",
        "pdf-transform download 0b5c... --to epub --out book.epub --base-url http://127.0.0.1:8787/v1 --api-key KEY"
      ]]
    ))
  )

/**
 * The root command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("pdf-transform").pipe(
  Command.withDescription(examples(
    "Converts PDFs to Markdown or EPUB through the PDF Conversion Service v1, or on this machine with no account. " +
      "Run a command with --help for its options and examples; --completions bash|zsh|fish prints shell completions.",
    [
      [
        "A folder of PDFs to Markdown on this machine (no account):",
        "pdf-transform convert examples/pdfs --to markdown --out out"
      ],
      [
        "EPUB books through the hosted service, with its API key:",
        "PDF_TRANSFORM_API_KEY=... pdf-transform convert examples/pdfs --to epub"
      ],
      ["A server of your own for other clients:", "pdf-transform serve --port 8787"]
    ]
  )),
  Command.withSubcommands([convertCommand, serveCommand, statusCommand, downloadCommand])
)

/**
 * Parses the arguments (`process.argv`, runtime and script first) and runs the command.
 *
 * @since 0.1.0
 * @category running
 */
export const run = Command.run(command, { name: "pdf-transform", version })
