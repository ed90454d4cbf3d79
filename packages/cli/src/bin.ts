/**
 * The `pdf-transform` executable: parses the command line and runs the command as a process (exit
 * codes, Ctrl-C, no stack traces).
 *
 * @since 0.1.0
 */
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Cli from "./Cli.js"
import { ExitCode } from "./ExitCode.js"
import { ExitStatus } from "./internal/interrupts.js"
import * as PlainConsole from "./internal/plainConsole.js"
import { runMain } from "./internal/runner.js"

const program = Cli.run(process.argv).pipe(
  // @effect/cli styles its help and errors always: plain when the stream is not a terminal or NO_COLOR is set.
  PlainConsole.withPlainStreams,
  // @effect/cli has printed what is wrong with the command line already.
  Effect.catchIf(
    ValidationError.isValidationError,
    () => Effect.flatMap(ExitStatus, (status) => status.set(ExitCode.usage))
  ),
  // What the commands use of the platform, and no more (NodeContext would load workers and processes too).
  Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeTerminal.layer))
)

runMain(program, { verbose: process.argv.includes("--verbose") })
