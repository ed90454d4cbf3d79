/** Response bodies: the contract's Schemas via `parseJson` in one pass; error bodies leniently (hints). */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Contract from "../Contract.js"
import type { Status } from "../PdfTransformClient.js"

/** A field whose invalid value reads as absent. */
const lenient = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownOption(schema)
  return Schema.optional(
    Schema.transform(Schema.Unknown, Schema.UndefinedOr(Schema.typeSchema(schema)), {
      strict: true,
      decode: (input) => Option.getOrUndefined(decode(input)),
      encode: (value) => value
    })
  )
}

/** The 401 body, as far as it is usable. */
export const UnauthenticatedHint = Schema.parseJson(Schema.Struct({
  error: lenient(Contract.UnauthenticatedBody.fields.error),
  message: lenient(Contract.UnauthenticatedBody.fields.message),
  resolution: lenient(Contract.UnauthenticatedBody.fields.resolution)
}))

/** The 404 body of a result request, as far as it is usable. */
export const NotFoundHint = Schema.parseJson(Schema.Struct({
  error: lenient(Contract.NotFoundBody.fields.error)
}))

/** The 429 body of a submit, as far as it is usable. */
export const RateLimitedHint = Schema.parseJson(Schema.Struct({
  // Any reason is kept, not only the contract's three: the caller may know a newer one.
  reason: lenient(Schema.String),
  // Checked and capped by `RateLimit.retryDelay`, which also takes a numeric string.
  retryAfterMs: Schema.optional(Schema.Unknown)
}))

/** The body of an accepted submit. */
export const Submitted = Schema.parseJson(Contract.SubmittedTask)

const contractStates: ReadonlySet<string> = new Set<Contract.TaskState>(["processing", "completed", "failed"])

/** A failure reported as `state: "error"`, as some deployments do (docs/contract.md, "Task status"): the contract's `failed`. */
const FailedAsError = Schema.transform(
  Schema.Struct({
    state: Schema.Literal("error"),
    error: lenient(Schema.String),
    message: lenient(Schema.String),
    progress: lenient(Schema.Number)
  }),
  Schema.typeSchema(Contract.FailedStatus),
  {
    strict: true,
    decode: ({ error, message, progress }) => ({
      success: false as const,
      state: "failed" as const,
      error: error ?? message ?? "",
      ...(progress === undefined ? {} : { progress })
    }),
    encode: ({ error, progress }) => ({ state: "error" as const, error, progress })
  }
)

/** A state the contract does not name: kept under `unrecognized`, with the raw state in `reported`. */
const Unrecognized = Schema.transform(
  Schema.Struct({
    state: Schema.String.pipe(Schema.filter((state) => !contractStates.has(state))),
    progress: lenient(Schema.Number)
  }),
  Schema.Struct({
    state: Schema.Literal("unrecognized"),
    reported: Schema.String,
    progress: Schema.optional(Schema.Number)
  }),
  {
    strict: true,
    decode: ({ progress, state }) => ({
      state: "unrecognized" as const,
      reported: state,
      ...(progress === undefined ? {} : { progress })
    }),
    encode: ({ progress, reported }) => ({ state: reported, progress })
  }
)

/** A `completed` body not matching the contract: not a status, but worth one re-poll. */
export interface BrokenCompleted {
  readonly _tag: "BrokenCompleted"
}

const BrokenCompleted = Schema.transform(
  Schema.Struct({ state: Schema.Literal("completed") }),
  Schema.Struct({ _tag: Schema.Literal("BrokenCompleted") }),
  {
    strict: true,
    decode: () => ({ _tag: "BrokenCompleted" as const }),
    encode: () => ({ state: "completed" as const })
  }
)

/** The body of a result request: the contract's three shapes first, then the tolerated ones. */
export const Result: Schema.Schema<Status | BrokenCompleted, string> = Schema.parseJson(
  Schema.Union(
    Contract.ProcessingStatus,
    Contract.CompletedStatus,
    Contract.FailedStatus,
    FailedAsError,
    BrokenCompleted,
    Unrecognized
  )
)
