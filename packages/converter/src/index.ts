/** @since 0.1.0 */
export * as Converter from "./Converter.js"

/** @since 0.1.0 */
export * as ConverterLive from "./ConverterLive.js"

/** @since 0.1.0 */
export * as Document from "./Document.js"

/** @since 0.1.0 */
export * as Epub from "./Epub.js"

/** @since 0.1.0 */
export * as Markdown from "./Markdown.js"
