/** An open PDF document through PDFium: opened from the caller's bytes (closed with its scope), reopened as it caches, its title. */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { PdfInvalid, PdfPasswordRequired } from "../Converter.js"
import type { DocumentFigures } from "./figures.js"
import { documentFigures } from "./figures.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"
import * as StructTree from "./structTree.js"
import type { Type3Font } from "./type3Fonts.js"
import { lazyType3Fonts } from "./type3Fonts.js"

/** FPDF_GetLastError's codes. */
const reasons: Record<number, string> = {
  1: "unknown error",
  2: "file not found or could not be opened",
  3: "not a PDF, or damaged beyond repair",
  4: "password required or incorrect",
  5: "unsupported security scheme",
  6: "page not found or content error"
}
const passwordError = 4

/**
 * PDFium keeps every object it parsed until the document closes, and the heap never shrinks: after
 * this many pages or this much growth, the file is opened afresh, so a long document's heap stays near a short one's.
 */
const pagesPerOpening = 100
const maxHeapGrowth = 16 * 1024 * 1024

/** An open document: the module that holds it and PDFium's handle, which `refresh` may replace. */
export class OpenDocument {
  private heapAtOpen: number
  private pagesRead = 0
  constructor(
    readonly module: Pdfium,
    readonly pages: number,
    private handle: number,
    private readonly reopen: () => number,
    /** What its figures share: its streams' dictionaries (PDFium does not give an image's parameters), figures made. */
    readonly figures: DocumentFigures,
    /** Whether it has a structure tree (its pages' trees and marked content are then read). */
    readonly tagged: boolean,
    readonly type3Fonts: () => ReadonlyArray<Type3Font>
  ) {
    this.heapAtOpen = module.pdfium.HEAPU8.length
  }

  get document(): number {
    return this.handle
  }

  /** After each page: reopens the document when it has cached enough; if that fails, the current one goes on. */
  refresh(): void {
    const heap = this.module.pdfium.HEAPU8.length
    if (++this.pagesRead < pagesPerOpening && heap - this.heapAtOpen <= maxHeapGrowth) return
    const fresh = this.reopen()
    if (fresh !== 0) {
      this.module.FPDF_CloseDocument(this.handle)
      this.handle = fresh
    }
    this.heapAtOpen = heap
    this.pagesRead = 0
  }

  close(): void {
    this.module.FPDF_CloseDocument(this.handle)
  }
}

/** Opens the PDF from the caller's bytes (read in place, never written); closed with the scope. */
export const open = (
  bytes: Uint8Array,
  password: string | undefined,
  /** Whether a tagged document's structure is read (benches compare the reading without it). */
  structure = true
): Effect.Effect<OpenDocument, PdfPasswordRequired | PdfInvalid, Scope.Scope> =>
  Effect.acquireRelease(P.acquire, P.release).pipe(
    Effect.flatMap((module) =>
      Effect.acquireRelease(
        Effect.sync(() => P.openFile(module, bytes)),
        (file) => Effect.sync(() => P.closeFile(module, file))
      ).pipe(
        Effect.flatMap((file) => {
          const load = () => module.FPDF_LoadCustomDocument(file, password ?? "")
          return Effect.acquireRelease(
            Effect.suspend((): Effect.Effect<OpenDocument, PdfPasswordRequired | PdfInvalid> => {
              const document = load()
              if (document !== 0) {
                return Effect.succeed(
                  new OpenDocument(
                    module,
                    module.FPDF_GetPageCount(document),
                    document,
                    load,
                    // A revision of -1 is no security handler: the file is not encrypted.
                    documentFigures(bytes, module.FPDF_GetSecurityHandlerRevision(document) !== -1),
                    structure && StructTree.isTagged(module, document),
                    lazyType3Fonts(bytes)
                  )
                )
              }
              const code = module.FPDF_GetLastError()
              return code === passwordError
                ? Effect.fail(new PdfPasswordRequired({ wrongPassword: password !== undefined }))
                : Effect.fail(new PdfInvalid({ reason: reasons[code] ?? `PDFium error ${code}` }))
            }),
            (open) => Effect.sync(() => open.close())
          )
        })
      )
    ),
    Effect.filterOrFail(
      (open) => open.pages > 0,
      () => new PdfInvalid({ reason: "The document has no pages" })
    )
  )

/** The title from the document information dictionary, when it has a usable one. */
export const title = (open: OpenDocument): Effect.Effect<string | undefined> =>
  Effect.sync(() => {
    const value = P.readString(open.module, (buffer, length) =>
      open.module.FPDF_GetMetaText(open.document, "Title", buffer, length)).trim()
    return value === "" ? undefined : value
  })
