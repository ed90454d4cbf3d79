/** A tagged page's structure tree as plain nodes, and each page object's marked content; never a call per character. */
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"
import type { TagKid, TagNode } from "./tagged/model.js"
import { artifact, elsewhere, unmarked } from "./tagged/model.js"

/** The C functions read here, called as the module exports them (see `Direct` in `pdfium.ts`). */
interface StructCalls {
  readonly FPDF_StructTree_GetForPage: (page: number) => number
  readonly FPDF_StructTree_Close: (tree: number) => void
  readonly FPDF_StructTree_CountChildren: (tree: number) => number
  readonly FPDF_StructTree_GetChildAtIndex: (tree: number, index: number) => number
  readonly FPDF_StructElement_GetType: (element: number, buffer: number, length: number) => number
  readonly FPDF_StructElement_GetAltText: (element: number, buffer: number, length: number) => number
  readonly FPDF_StructElement_GetActualText: (element: number, buffer: number, length: number) => number
  readonly FPDF_StructElement_CountChildren: (element: number) => number
  readonly FPDF_StructElement_GetChildAtIndex: (element: number, index: number) => number
  readonly FPDF_StructElement_GetChildMarkedContentID: (element: number, index: number) => number
  readonly FPDF_StructElement_GetAttributeCount: (element: number) => number
  readonly FPDF_StructElement_GetAttributeAtIndex: (element: number, index: number) => number
  readonly FPDF_StructElement_Attr_GetValue: (attribute: number, name: number) => number
  readonly FPDF_StructElement_Attr_GetNumberValue: (value: number, out: number) => number
  readonly FPDF_StructElement_Attr_GetStringValue: (
    value: number,
    buffer: number,
    length: number,
    out: number
  ) => number
  readonly FPDFPageObj_GetMarkedContentID: (object: number) => number
  readonly FPDFPageObj_CountMarks: (object: number) => number
  readonly FPDFPageObj_GetMark: (object: number, index: number) => number
  readonly FPDFPageObjMark_GetName: (mark: number, buffer: number, length: number, out: number) => number
}

const structNames: ReadonlyArray<keyof StructCalls> = [
  "FPDF_StructTree_GetForPage",
  "FPDF_StructTree_Close",
  "FPDF_StructTree_CountChildren",
  "FPDF_StructTree_GetChildAtIndex",
  "FPDF_StructElement_GetType",
  "FPDF_StructElement_GetAltText",
  "FPDF_StructElement_GetActualText",
  "FPDF_StructElement_CountChildren",
  "FPDF_StructElement_GetChildAtIndex",
  "FPDF_StructElement_GetChildMarkedContentID",
  "FPDF_StructElement_GetAttributeCount",
  "FPDF_StructElement_GetAttributeAtIndex",
  "FPDF_StructElement_Attr_GetValue",
  "FPDF_StructElement_Attr_GetNumberValue",
  "FPDF_StructElement_Attr_GetStringValue",
  "FPDFPageObj_GetMarkedContentID",
  "FPDFPageObj_CountMarks",
  "FPDFPageObj_GetMark",
  "FPDFPageObjMark_GetName"
]

/** The attribute names asked for, as C strings in the module's heap (allocated once per module). */
const attributeNames = ["RowSpan", "ColSpan", "ListNumbering"] as const
type AttributeName = typeof attributeNames[number]

interface Struct {
  readonly c: StructCalls
  readonly names: Record<AttributeName, number>
}

const structs = new WeakMap<Pdfium, Struct>()

const structOf = (m: Pdfium): Struct => {
  let struct = structs.get(m)
  if (struct === undefined) {
    const heap = m.pdfium
    const names = Object.fromEntries(attributeNames.map((name) => {
      const pointer = heap.wasmExports.malloc(name.length + 1)
      heap.HEAPU8.set([...Buffer.from(name, "latin1"), 0], pointer)
      return [name, pointer]
    })) as Record<AttributeName, number>
    struct = { c: P.exportedFunctions<StructCalls>(heap.wasmExports, structNames), names }
    structs.set(m, struct)
  }
  return struct
}

/** Whether the document says it is tagged (a structure tree root and MarkInfo's Marked). */
export const isTagged = (m: Pdfium, document: number): boolean => m.FPDFCatalog_IsTagged(document)

/** A hostile tree is cut here: deeper nesting or more elements than any document needs. */
const maxDepth = 64
const maxElements = 100_000

/** Bytes of the scratch buffer strings are read into; a longer string gets its own buffer. */
const scratchBytes = 512

/** Roles whose alternative description is read (the description stands for their content). */
const altRoles = new Set(["Figure", "Formula", "Form"])

/** The page's structure tree: elements holding its content, in order, with their kids (`elsewhere`: not here). */
export const readTree = (m: Pdfium, page: number): Array<TagNode> => {
  const { c, names } = structOf(m)
  const tree = c.FPDF_StructTree_GetForPage(page)
  if (tree === 0) return []
  try {
    return P.withBuffer(m, scratchBytes + 8, (scratch) => {
      const out = scratch + scratchBytes
      const text = (get: (buffer: number, length: number) => number): string => {
        const bytes = get(scratch, scratchBytes)
        if (bytes <= 2) return ""
        if (bytes <= scratchBytes) return P.readUtf16(m, scratch, bytes / 2)
        return P.withBuffer(m, bytes, (buffer) => P.readUtf16(m, buffer, get(buffer, bytes) / 2))
      }
      const attributes = (element: number, wanted: ReadonlyArray<AttributeName>) => {
        const found: Partial<Record<AttributeName, number | string>> = {}
        const count = c.FPDF_StructElement_GetAttributeCount(element)
        for (let i = 0; i < count; i++) {
          const attribute = c.FPDF_StructElement_GetAttributeAtIndex(element, i)
          for (const name of wanted) {
            const value = c.FPDF_StructElement_Attr_GetValue(attribute, names[name])
            if (value === 0) continue
            if (c.FPDF_StructElement_Attr_GetNumberValue(value, out)) found[name] = P.float(m, out)
            else if (c.FPDF_StructElement_Attr_GetStringValue(value, scratch, scratchBytes, out)) {
              found[name] = P.readUtf16(m, scratch, P.int(m, out) / 2)
            }
          }
        }
        return found
      }
      let elements = 0
      const node = (element: number, depth: number): TagNode => {
        elements++
        const role = text((buffer, length) => c.FPDF_StructElement_GetType(element, buffer, length))
        const kids: Array<TagKid> = []
        const count = depth < maxDepth ? c.FPDF_StructElement_CountChildren(element) : 0
        for (let i = 0; i < count; i++) {
          const child = elements < maxElements ? c.FPDF_StructElement_GetChildAtIndex(element, i) : 0
          if (child !== 0) kids.push(node(child, depth + 1))
          else {
            const mcid = c.FPDF_StructElement_GetChildMarkedContentID(element, i)
            kids.push(mcid >= 0 ? mcid : elsewhere)
          }
        }
        const spans = role === "TD" || role === "TH"
          ? attributes(element, ["RowSpan", "ColSpan"])
          : role === "L"
          ? attributes(element, ["ListNumbering"])
          : {}
        const span = (value: number | string | undefined) =>
          typeof value === "number" && value >= 1 ? Math.min(1000, Math.round(value)) : 1
        return {
          role,
          kids,
          alt: altRoles.has(role)
            ? text((buffer, length) => c.FPDF_StructElement_GetAltText(element, buffer, length))
            : "",
          actualText: text((buffer, length) => c.FPDF_StructElement_GetActualText(element, buffer, length)),
          numbering: typeof spans.ListNumbering === "string" ? spans.ListNumbering : "",
          rowSpan: span(spans.RowSpan),
          colSpan: span(spans.ColSpan)
        }
      }
      const roots: Array<TagNode> = []
      const count = c.FPDF_StructTree_CountChildren(tree)
      for (let i = 0; i < count && elements < maxElements; i++) {
        const element = c.FPDF_StructTree_GetChildAtIndex(tree, i)
        if (element !== 0) roots.push(node(element, 0))
      }
      return roots
    })
  } finally {
    c.FPDF_StructTree_Close(tree)
  }
}

const artifactName = "Artifact"

/** A page object's marked content: its MCID, `artifact` (furniture) or `unmarked`. */
export const markedContent = (m: Pdfium): (object: number) => number => {
  const { c } = structOf(m)
  return (object) => {
    const mcid = c.FPDFPageObj_GetMarkedContentID(object)
    if (mcid >= 0) return mcid
    const marks = c.FPDFPageObj_CountMarks(object)
    if (marks <= 0) return unmarked
    return P.withBuffer(m, 40, (buffer) => {
      for (let i = 0; i < marks; i++) {
        const mark = c.FPDFPageObj_GetMark(object, i)
        if (mark === 0 || !c.FPDFPageObjMark_GetName(mark, buffer, 32, buffer + 32)) continue
        const bytes = P.int(m, buffer + 32)
        if (bytes === (artifactName.length + 1) * 2 && P.readUtf16(m, buffer, bytes / 2) === artifactName) {
          return artifact
        }
      }
      return unmarked
    })
  }
}
