/** The OpenAPI document of the v1 contract, by hand around JSON Schemas from core's (README: why not HttpApi). */
import * as Contract from "@pdf-transform/core/Contract"
import * as Upload from "@pdf-transform/core/UploadProtocol"
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"
import { SubmitBody } from "./submitBody.js"

const SubmitRequest = SubmitBody.annotations({ identifier: "ConversionRequest" })

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

/** An error answer with the generic `{error, message}` body. */
const error = (description: string) => ({ description, content: json(ref(ErrorBody)) })

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

const badRequest = error(
  "Invalid request body; pdfURL refused (not an upload of this key: a /v1/files URL or the cache:// URL of a finished upload)"
)

const submitOperation = (format: Contract.Format) => ({
  operationId: `${format}Submit`,
  summary: `Create an asynchronous PDF-to-${format === "markdown" ? "Markdown" : "EPUB"} task`,
  requestBody: { required: true, content: json(ref(SubmitRequest, "allow")) },
  responses: {
    "200": { description: "Task created", headers: rateLimitHeaders, content: json(ref(Contract.SubmittedTask)) },
    "400": badRequest,
    "401": unauthorized,
    "413": error("Body too large"),
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
        "400": error("Empty, not starting with %PDF-, or a form without exactly one file part"),
        "401": unauthorized,
        "413": error("Too large"),
        "415": error("Another Content-Type"),
        "507": error("Upload storage full")
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
        "403": error("Bad signature"),
        "404": error("Unknown or expired"),
        "410": error("Signed URL expired")
      }
    }
  },
  "/uploads/init": {
    post: {
      operationId: "uploadInit",
      summary: "Start a chunked upload (the hosted service's protocol), or resume one with its upload_id",
      requestBody: { required: true, content: json(ref(Upload.InitRequest, "allow")) },
      responses: {
        "200": {
          description: "Part size, part count, received parts, a PUT URL per missing part",
          content: json(ref(Upload.InitResponse))
        },
        "400": error("Invalid body, or not a .pdf"),
        "401": unauthorized,
        "404": error("Resuming an unknown, expired or foreign upload_id"),
        "409": error("Resuming a finished upload, or with another size"),
        "413": error("size over the upload limit (the body carries max_bytes)"),
        "507": error("The upload storage cannot hold the file")
      }
    }
  },
  "/uploads/{uploadId}/parts/{partNumber}": {
    put: {
      operationId: "uploadPart",
      summary:
        "One part's bytes (part_size bytes, the last one shorter), to the presigned URL; sent again, it replaces itself",
      security: [{}],
      parameters: [
        { name: "uploadId", in: "path", required: true, schema: { type: "string" } },
        { name: "partNumber", in: "path", required: true, schema: { type: "integer", minimum: 1 } },
        { name: "expires", in: "query", required: true, schema: { type: "string" } },
        { name: "signature", in: "query", required: true, schema: { type: "string" } }
      ],
      requestBody: { required: true, content: { "application/octet-stream": { schema: binary } } },
      responses: {
        "200": { description: "Stored", content: json(ref(Upload.PartResponse)) },
        "400": error("Not the part's size, or a first part that does not start with %PDF-"),
        "403": error("Bad signature"),
        "404": error("Unknown or expired upload"),
        "409": error("The upload is finished"),
        "410": error("Part URL expired (the upload with it)"),
        "413": error("Larger than the part")
      }
    }
  },
  "/uploads/{uploadId}/url": {
    get: {
      operationId: "uploadUrl",
      summary: "The cache:// URL of a finished upload, to submit as pdfURL",
      parameters: [{ name: "uploadId", in: "path", required: true, schema: { type: "string" } }],
      responses: {
        "200": { description: "cache://<upload_id>.pdf", content: json(ref(Upload.UrlResponse)) },
        "401": unauthorized,
        "404": error("Unknown, expired or foreign upload"),
        "409": { description: "Parts are missing", content: json(ref(Upload.IncompleteUpload)) }
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
        "403": error("Bad signature"),
        "404": error("The output no longer exists"),
        "410": error("URL expired: poll the result again for a fresh one")
      }
    }
  }
}

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
