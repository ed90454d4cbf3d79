/** @since 0.1.0 */

/**
 * The reference server of the PDF Conversion Service v1: `layer`, `layerConfig`, `makeApp`.
 *
 * @since 0.1.0
 */
export * as Server from "./Server.js"

/**
 * The server's default figures, in a module that loads nothing of the server (for command lines).
 *
 * @since 0.1.0
 */
export * as ServerDefaults from "./ServerDefaults.js"

/**
 * A `Converter` that simulates work, for tests and benchmarks.
 *
 * @since 0.1.0
 */
export * as SimulatedConverter from "./SimulatedConverter.js"

/**
 * The JSON API of the server's web page (`/api/...`), as Schemas.
 *
 * @since 0.2.0
 */
export * as WebApi from "./WebApi.js"
