/** Test layers for `@pdf-transform/core`.
 * @since 0.1.0 */

/** An in-memory `HttpClient` that speaks the v1 contract, to test the real client without sockets.
 * @since 0.1.0 */
export * as FakeServer from "./FakeServer.js"

/** Short constructors of the client's errors, for scripts and assertions.
 * @since 0.1.0 */
export * as TestErrors from "./TestErrors.js"

/** The real client over `FakeServer`, scripted and recorded, for code that uses the client.
 * @since 0.1.0 */
export * as TestPdfTransformClient from "./TestPdfTransformClient.js"

/** Moves `TestClock` from one pending sleep to the next until a fiber is done.
 * @since 0.1.0 */
export * as TestClockDriver from "./TestClockDriver.js"

/** Files in memory behind `FileSystem` and `Path`, with faults to set.
 * @since 0.2.0 */
export * as MemoryFileSystem from "./MemoryFileSystem.js"
