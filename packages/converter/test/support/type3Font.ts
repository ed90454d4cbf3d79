import type { PDFContext, PDFRef } from "pdf-lib"
import { PDFName } from "pdf-lib"

export interface Type3FontOptions {
  /** Each code's advance in glyph units (500 by default). */
  readonly width?: (code: number) => number
  /** The encoding as an object of its own. */
  readonly indirect?: boolean
  /** The content stream every glyph is drawn by (a square by default). */
  readonly glyph?: string
}

/** A Type 3 font without /BaseFont (as pdfTeX writes its bitmap fonts) whose `/Differences` give `names` their codes. */
export const type3Font = (
  context: PDFContext,
  names: ReadonlyArray<readonly [number, string]>,
  options: Type3FontOptions = {}
): PDFRef => {
  const square = context.register(context.stream(options.glyph ?? "500 0 0 0 400 600 d1 0 0 400 600 re f"))
  const encoding = context.obj({
    Type: "Encoding",
    Differences: names.flatMap(([code, name]) => [code, PDFName.of(name)])
  })
  const codes = names.map(([code]) => code)
  const first = Math.min(...codes)
  const last = Math.max(...codes)
  return context.register(context.obj({
    Type: "Font",
    Subtype: "Type3",
    FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
    FontBBox: [0, 0, 500, 700],
    Resources: context.obj({}),
    FirstChar: first,
    LastChar: last,
    Widths: Array.from({ length: last - first + 1 }, (_, i) => options.width?.(first + i) ?? 500),
    Encoding: options.indirect === true ? context.register(encoding) : encoding,
    CharProcs: Object.fromEntries(names.map(([, name]) => [name, square]))
  }))
}
