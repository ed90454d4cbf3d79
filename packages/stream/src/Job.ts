/** One document of a batch: its PDF's source, the format, the request's options, and maybe the output's name.
 * @since 0.1.0 */
import type * as Contract from "@pdf-transform/core/Contract"

/** Where a PDF comes from.
 * @since 0.1.0
 * @category models */
export type Source = URL | string | Uint8Array

/** The request's options other than `pdfURL` (which the batch fills in).
 * @since 0.1.0
 * @category models */
export type RequestOptions = Omit<Contract.ConversionRequestInput, "pdfURL">

/** @since 0.1.0
 * @category models */
export interface Job<F extends Contract.Format = Contract.Format> {
  readonly source: Source
  readonly format: F
  readonly request?: RequestOptions | undefined
  /** The output's file name (extension added when missing); default: the source's name without `.pdf`. */
  readonly outputName?: string | undefined
}

/** A job converting a local file.
 * @since 0.1.0
 * @category constructors */
export const file = <F extends Contract.Format>(
  path: string,
  format: F,
  options?: { readonly request?: RequestOptions; readonly outputName?: string }
): Job<F> => ({ source: path, format, ...options })

/**
 * A job converting the PDF at a URL the service can fetch.
 *
 * @example
 * ```ts
 * import { Job } from "@pdf-transform/stream"
 *
 * const job = Job.url("https://example.com/papers/one.pdf", "epub", { outputName: "paper-one" })
 * assert.strictEqual(job.source.toString(), "https://example.com/papers/one.pdf")
 * assert.strictEqual(job.format, "epub")
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const url = <F extends Contract.Format>(
  href: string | URL,
  format: F,
  options?: { readonly request?: RequestOptions; readonly outputName?: string }
): Job<F> => ({ source: typeof href === "string" ? new URL(href) : href, format, ...options })

/** A job converting PDF bytes held in memory; `outputName` names the output.
 * @since 0.1.0
 * @category constructors */
export const bytes = <F extends Contract.Format>(
  data: Uint8Array,
  format: F,
  outputName: string,
  options?: { readonly request?: RequestOptions }
): Job<F> => ({ source: data, format, outputName, ...options })
