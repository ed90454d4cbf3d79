/** One error of every kind the command explains, built as the libraries build them. */
import type { Contract } from "@pdf-transform/core"
import { PdfTransformError, Uploader } from "@pdf-transform/core"
import { BatchError } from "@pdf-transform/stream"
import { BackendFailed, UsageError } from "../../src/CliError.js"

const sessionId = "3f2a-task" as Contract.SessionId
const rateLimit = { policies: [], states: [] }

export const errors = {
  unauthenticated: new PdfTransformError.Unauthenticated({
    operation: "submit",
    message: "The API key is not valid for this server.",
    resolution: "Send Authorization: Bearer <key>"
  }),
  quota: new PdfTransformError.RateLimited({
    format: "markdown",
    reason: "quota_exceeded",
    retryAt: Date.UTC(2030, 0, 1, 12),
    attempts: 1,
    rateLimit
  }),
  rate: new PdfTransformError.RateLimited({ format: "markdown", reason: "rate_exceeded", attempts: 20, rateLimit }),
  concurrency: new PdfTransformError.RateLimited({
    format: "epub",
    reason: "concurrency_exceeded",
    attempts: 20,
    rateLimit
  }),
  conversionFailed: new PdfTransformError.ConversionFailed({
    format: "markdown",
    sessionId,
    reason: "Not a readable PDF: Invalid PDF structure."
  }),
  pollTimeout: new PdfTransformError.PollTimeout({
    format: "markdown",
    sessionId,
    waitedMs: 600_000,
    lastStatus: { state: "processing", progress: 42.5 }
  }),
  taskNotFound: new PdfTransformError.TaskNotFound({ format: "epub", sessionId }),
  outcomeUnknown: new PdfTransformError.SubmitOutcomeUnknown({ format: "markdown", reason: "socket hang up" }),
  serverError: new PdfTransformError.UnexpectedResponse({
    operation: "status",
    status: 503,
    contentType: "text/html",
    bodyExcerpt: "<html>\n  <body>Service Unavailable</body>\n</html>"
  }),
  tooLarge: new PdfTransformError.UnexpectedResponse({ operation: "upload", status: 413, bodyExcerpt: "" }),
  invalidResponse: new PdfTransformError.InvalidResponse({
    operation: "submit",
    status: 200,
    problem: "sessionID is missing",
    bodyExcerpt: "{}"
  }),
  invalidRequest: new PdfTransformError.InvalidRequest({ operation: "upload", problem: "a.pdf is empty" }),
  transport: new PdfTransformError.TransportError({ operation: "submit", reason: "connect ECONNREFUSED", sent: false }),
  download: new PdfTransformError.DownloadFailed({ sessionId, reason: "truncated body: 10 of 20 bytes" }),
  unreadable: new BatchError.SourceUnreadable({ path: "a.pdf", reason: "not a PDF (it does not start with %PDF-)" }),
  uploaderMissing: new BatchError.UploaderMissing({ source: "a.pdf" }),
  output: new BatchError.OutputFailed({ path: "out/a.md", reason: "ENOSPC: no space left on device" }),
  journal: new BatchError.JournalFailed({ path: "out/j.jsonl", operation: "write", reason: "EACCES" }),
  usage: new UsageError({ message: "No such file or folder: x.pdf" }),
  backend: new BackendFailed({ reason: "listen EADDRINUSE" }),
  uploadFailed: new Uploader.UploadFailed({
    name: "report.pdf",
    step: "part",
    part: 3,
    status: 502,
    reason: "Bad Gateway",
    attempts: 5
  }),
  uploadTooLarge: new Uploader.UploadTooLarge({ name: "atlas.pdf", bytes: 700_000_000, maxBytes: 524_288_000 })
}
