/**
 * The OpenAPI 3.1 document of the v1 contract as this server serves it, written by hand around
 * JSON Schemas generated from core's Schemas (see the README for why not HttpApi).
 */
import * as Contract from "@pdf-transform/core/Contract"
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"

const SubmitRequest = Schema.Struct({
  ...Contract.ConversionRequest.fields,
  model: Contract.Model
}).annotations({ identifier: "ConversionRequest" })

const UploadedFile = Schema.Struct({ url: Contract.HttpUrl }).annotations({ identifier: "UploadedFile" })

const ErrorBody = Schema.Struct({ error: Schema.String, message: Schema.String }).annotations({
  identifier: "ErrorBody",
  description: "Any other error: a category and a human-readable message (not a stable schema)"
})

const components: Record<string, JSONSchema.JsonSchema7> = {}

const ref = (schema: Schema.Schema.AnyNoContext, additional: "strict" | "allow" = "strict"): JSONSchema.JsonSchema7 =>
  JSONSchema.fromAST(schema.ast, {
    definitions: components,
    definitionPath: "#/components/schemas/",
    target: "openApi3.1",
    additionalPropertiesStrategy: additional
  })

const json = (schema: JSONSchema.JsonSchema7) => ({ "application/json": { schema } })

const binary = { type: "string", format: "binary" }

const header = (description: string) => ({ description, schema: { type: "string" } })

const rateLimitHeaders = {
  "RateLimit-Policy": header(
    "Quota policies, IETF draft -11 syntax: \"burst\";q=10;w=1, \"conc\";q=8;qu=\"concurrent-requests\""
  ),
  RateLimit: header("Remaining quota per policy: \"burst\";r=3;t=1, \"conc\";r=0")
}

const unauthorized = {
  description: "Missing or invalid credential",
  headers: {
    "WWW-Authenticate": header(
      "Bearer challenge: Bearer realm=\"pdf-transform\" without a credential, with error=\"invalid_token\" for a refused one"
    )
  },
  content: json(ref(Contract.UnauthenticatedBody))
}

const badRequest = { description: "Invalid request body, pdfURL refused", content: json(ref(ErrorBody)) }

const submitOperation = (format: Contract.Format) => ({
  operationId: `${format}Submit`,
  summary: `Create an asynchronous PDF-to-${format === "markdown" ? "Markdown" : "EPUB"} task`,
  requestBody: { required: true, content: json(ref(SubmitRequest, "allow")) },
  responses: {
    "200": { description: "Task created", headers: rateLimitHeaders, content: json(ref(Contract.SubmittedTask)) },
    "400": badRequest,
    "401": unauthorized,
    "413": { description: "Body too large", content: json(ref(ErrorBody)) },
    "429": {
      description: "Rate, quota or concurrency limit: no task was created",
      headers: {
        "Retry-After": header("Seconds, rounded up from the limiter decision"),
        ...rateLimitHeaders
      },
      content: json(ref(Contract.RateLimitedBody))
    }
  }
})

const resultOperation = (format: Contract.Format) => ({
  operationId: `${format}Result`,
  summary: `State of a ${format} task; every state is answered with 200`,
  parameters: [{ name: "taskId", in: "path", required: true, schema: { type: "string", minLength: 1 } }],
  responses: {
    "200": { description: "processing, completed or failed", content: json(ref(Contract.TaskStatus)) },
    "401": unauthorized,
    "404": { description: "Unknown, expired or foreign task id", content: json(ref(Contract.NotFoundBody)) }
  }
})

const paths = {
  [Contract.paths.markdownSubmit]: { post: submitOperation("markdown") },
  [Contract.paths.epubSubmit]: { post: submitOperation("epub") },
  [Contract.paths.markdownResult]: { get: resultOperation("markdown") },
  [Contract.paths.epubResult]: { get: resultOperation("epub") },
  "/files": {
    post: {
      operationId: "upload",
      summary: "Upload a PDF (the body is the file, or the one file part of a form); answers the pdfURL to submit",
      requestBody: {
        required: true,
        content: {
          "application/pdf": { schema: binary },
          "application/octet-stream": { schema: binary },
          "multipart/form-data": { schema: { type: "object", properties: { file: binary } } }
        }
      },
      responses: {
        "201": { description: "Stored", content: json(ref(UploadedFile)) },
        "400": {
          description: "Empty, not starting with %PDF-, or a form without exactly one file part",
          content: json(ref(ErrorBody))
        },
        "401": unauthorized,
        "413": { description: "Too large", content: json(ref(ErrorBody)) },
        "415": { description: "Another Content-Type", content: json(ref(ErrorBody)) },
        "503": { description: "Upload storage full", content: json(ref(ErrorBody)) }
      }
    }
  },
  "/files/{fileId}": {
    get: {
      operationId: "getFile",
      summary: "An uploaded PDF: with the signed URL, or with the uploader's key",
      security: [{}, { bearer: [] }],
      parameters: [{ name: "fileId", in: "path", required: true, schema: { type: "string" } }],
      responses: {
        "200": { description: "The PDF", content: { "application/pdf": {} } },
        "403": { description: "Bad signature", content: json(ref(ErrorBody)) },
        "404": { description: "Unknown or expired", content: json(ref(ErrorBody)) },
        "410": { description: "Signed URL expired", content: json(ref(ErrorBody)) }
      }
    }
  },
  "/downloads/{taskId}": {
    get: {
      operationId: "download",
      summary: "The output of a completed task (the downloadURL, signed and expiring)",
      security: [{}],
      parameters: [
        { name: "taskId", in: "path", required: true, schema: { type: "string" } },
        { name: "expires", in: "query", required: true, schema: { type: "string" } },
        { name: "signature", in: "query", required: true, schema: { type: "string" } }
      ],
      responses: {
        "200": {
          description: "The output file",
          headers: {
            "Content-Disposition": header("attachment; filename=\"...\"; filename*=UTF-8''...")
          },
          content: { "text/markdown; charset=utf-8": {}, "application/epub+zip": {} }
        },
        "403": { description: "Bad signature", content: json(ref(ErrorBody)) },
        "404": { description: "The output no longer exists", content: json(ref(ErrorBody)) },
        "410": { description: "URL expired: poll the result again for a fresh one", content: json(ref(ErrorBody)) }
      }
    }
  }
}

/** The document, computed once. */
export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "PDF Conversion Service",
    version: "1.0.0",
    description: "The v1 contract as served by the @pdf-transform/server reference server."
  },
  servers: [{ url: "/v1" }],
  security: [{ bearer: [] }],
  paths,
  components: {
    schemas: components,
    securitySchemes: {
      bearer: {
        type: "http",
        scheme: "bearer",
        description: "Authorization: Bearer <API key>; the raw key without the scheme is accepted too"
      }
    }
  }
}
