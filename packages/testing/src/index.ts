/**
 * Test layers for `@pdf-transform/core`.
 *
 * @since 0.1.0
 */

/**
 * An in-memory `HttpClient` that speaks the v1 contract, to test the real client without sockets.
 *
 * @since 0.1.0
 */
export * as FakeServer from "./FakeServer.js"

/**
 * A scriptable in-memory `PdfTransformClient`, for code that uses the client.
 *
 * @since 0.1.0
 */
export * as TestPdfTransformClient from "./TestPdfTransformClient.js"
