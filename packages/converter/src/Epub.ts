/**
 * Builds an EPUB 3 book from the document model: one XHTML file per chapter, nav.xhtml and a
 * toc.ncx for older readers, figures (JPEG or PNG), zipped with `mimetype` first and stored.
 *
 * @since 0.1.0
 */
import * as Crypto from "node:crypto"
import * as Zlib from "node:zlib"
import type * as Document from "./Document.js"
import { Style } from "./Document.js"
import type { TocEntry } from "./internal/epubNav.js"
import { buildTree, navList, ncxPoints } from "./internal/epubNav.js"
import type { NoteIds } from "./internal/footnotes.js"
import { pairNotes } from "./internal/footnotes.js"
import * as Xml from "./internal/xml.js"
import type { ZipEntry } from "./internal/zip.js"
import { zip } from "./internal/zip.js"

/**
 * Escapes text for XML content and attribute values, removing characters XML cannot carry.
 *
 * @since 0.1.0
 * @category rendering
 */
export const escapeXml: (text: string) => string = Xml.escapeXml

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The book's unique identifier; by default a UUID derived from the content, so builds repeat. */
  readonly identifier?: string | undefined
  /** `dcterms:modified`; by default now. */
  readonly modified?: Date | undefined
}

interface Chapter {
  readonly file: string
  readonly title: string
  readonly blocks: ReadonlyArray<Document.Block>
}

const rtlLanguages = new Set(["ar", "he", "fa", "ur"])

/** Chapters start at the top-level headings, if two or more (the outline's first level, when there is one). */
const splitChapters = (document: Document.Document): Array<Chapter> => {
  const headings = document.blocks.filter((block): block is Document.Heading => block._tag === "Heading")
  // The shallowest level used twice: a lone title over its sections still gives one chapter a section.
  const counts = new Map<number, number>()
  for (const heading of headings) counts.set(heading.level, (counts.get(heading.level) ?? 0) + 1)
  const splitAt = [...counts.keys()].sort((a, b) => a - b).find((level) => counts.get(level)! >= 2)
  const groups: Array<Array<Document.Block>> = [[]]
  for (const block of document.blocks) {
    if (block._tag === "Heading" && block.level === splitAt && groups[groups.length - 1]!.some(hasContent)) {
      groups.push([])
    }
    groups[groups.length - 1]!.push(block)
  }
  return groups.map((blocks, index) => {
    const heading = blocks.find((block): block is Document.Heading => block._tag === "Heading")
    return {
      file: `chapter-${String(index + 1).padStart(3, "0")}.xhtml`,
      title: heading?.text ?? document.title,
      blocks
    }
  })
}

const hasContent = (block: Document.Block): boolean => block._tag !== "PageBreak"

const xhtml = (language: string, title: string, body: string): string => {
  const dir = rtlLanguages.has(language) ? " dir=\"rtl\"" : ""
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="${language}" xml:lang="${language}"${dir}>
<head>
<meta charset="UTF-8"/>
<title>${escapeXml(title) || "Untitled"}</title>
</head>
<body>
${body}
</body>
</html>
`
}

interface Image {
  readonly file: string
  readonly data: Uint8Array
  readonly mediaType: Document.Figure["mediaType"]
  /** The bytes' CRC-32: the key that finds the same bytes again, and the zip entry's checksum. */
  readonly crc: number
}

const extensions: Record<Document.Figure["mediaType"], string> = { "image/png": "png", "image/jpeg": "jpg" }

/** Images by CRC-32, type and length (bytes compared on a match: a digest cost milliseconds), and by their bytes. */
interface ImagesByContent {
  readonly byKey: Map<string, Array<Image>>
  readonly byData: Map<Uint8Array, Image>
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a === b || Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)

/** A figure's file: the same bytes shown again (a logo on every page) are one file. */
const imageFile = (images: Array<Image>, byContent: ImagesByContent, figure: Document.Figure): string => {
  const shared = byContent.byData.get(figure.data)
  if (shared !== undefined && shared.mediaType === figure.mediaType) return shared.file
  const crc = Zlib.crc32(figure.data)
  const key = `${figure.mediaType} ${figure.data.byteLength} ${crc}`
  const candidates = byContent.byKey.get(key) ?? []
  const known = candidates.find((image) => sameBytes(image.data, figure.data))
  if (known !== undefined) {
    byContent.byData.set(figure.data, known)
    return known.file
  }
  const file = `images/figure-${String(images.length + 1).padStart(4, "0")}.${extensions[figure.mediaType]}`
  const image = { file, data: figure.data, mediaType: figure.mediaType, crc }
  images.push(image)
  byContent.byKey.set(key, [...candidates, image])
  byContent.byData.set(figure.data, image)
  return file
}

/** Where footnotes are: their ids, and the chapter file each one is in. */
interface Notes {
  readonly ids: NoteIds
  readonly files: ReadonlyMap<string, string>
  /** The chapter file being written (a note in it is linked by its id alone). */
  readonly file: string
}

/** The link of a paired footnote reference; a reference without a note stays text. */
const noteReference = (mark: Document.Mark, label: string, notes: Notes | undefined): string => {
  const id = notes?.ids.references.get(mark)
  if (id === undefined) return label
  const file = notes!.files.get(id)
  const href = file === undefined || file === notes!.file ? `#fn-${id}` : `${file}#fn-${id}`
  return `<sup><a epub:type="noteref" href="${escapeXml(href)}">${label}</a></sup>`
}

/** Text with its marks as XHTML: `<code>`, `<strong>`, `<em>`, footnote references; the rest escaped. */
const inlineXhtml = (text: string, marks: ReadonlyArray<Document.Mark> = [], notes?: Notes): string => {
  let out = ""
  let at = 0
  for (const mark of marks) {
    if (mark.start < at || mark.end > text.length) continue
    out += escapeXml(text.slice(at, mark.start))
    let inner = escapeXml(text.slice(mark.start, mark.end))
    if ((mark.style & Style.footnote) !== 0) inner = noteReference(mark, inner, notes)
    else if ((mark.style & Style.code) !== 0) inner = `<code>${inner}</code>`
    else {
      if ((mark.style & Style.emphasis) !== 0) inner = `<em>${inner}</em>`
      if ((mark.style & Style.strong) !== 0) inner = `<strong>${inner}</strong>`
    }
    out += inner
    at = mark.end
  }
  return out + escapeXml(text.slice(at))
}

const itemBlocksXhtml = (
  blocks: ReadonlyArray<Document.Paragraph | Document.Code> | undefined,
  notes: Notes | undefined
): string =>
  (blocks ?? []).map((block) =>
    block._tag === "Code"
      ? `<pre><code>${escapeXml(block.text)}</code></pre>`
      : `<p>${inlineXhtml(block.text, block.marks, notes)}</p>`
  ).join("")

const listXhtml = (list: Document.List, notes: Notes | undefined): string => {
  const tag = list.ordered && list.items[0]?.label === undefined ? "ol" : "ul"
  const start = tag === "ol" && list.start !== 1 ? ` start="${list.start}"` : ""
  const items = list.items.map((item) =>
    `<li>${item.label !== undefined ? `${escapeXml(item.label)} ` : ""}${inlineXhtml(item.text, item.marks, notes)}${
      itemBlocksXhtml(item.blocks, notes)
    }${(item.lists ?? []).map((nested) => listXhtml(nested, notes)).join("")}${itemBlocksXhtml(item.after, notes)}</li>`
  )
  return `<${tag}${start}>${items.join("")}</${tag}>`
}

/** The blocks that may be the description (`<dd>`) of the terms before them. */
const describes: ReadonlySet<Document.Block["_tag"]> = new Set(["Paragraph", "List", "Code", "Table"])

const renderChapter = (
  chapter: Chapter,
  toc: Array<TocEntry>,
  images: Array<Image>,
  imagesByContent: ImagesByContent,
  language: string,
  noteIds: NoteIds | undefined,
  noteFiles: ReadonlyMap<string, string>
): string => {
  const notes = noteIds === undefined ? undefined : { ids: noteIds, files: noteFiles, file: chapter.file }
  const parts: Array<string> = []
  let headingId = 0
  // Terms open a `<dl>`; the block after them is their `<dd>` when it can be one.
  let terms = false
  for (const block of chapter.blocks) {
    if (block._tag === "Term") {
      parts.push(`${terms ? "" : "<dl>"}<dt>${inlineXhtml(block.text, block.marks, notes)}</dt>`)
      terms = true
      continue
    }
    if (block._tag === "PageBreak") continue
    const start = parts.length
    switch (block._tag) {
      case "Heading": {
        const id = `h${++headingId}`
        const level = Math.max(1, Math.min(6, block.level))
        if (block.text.trim() === "") break
        parts.push(`<h${level} id="${id}">${inlineXhtml(block.text, block.marks, notes)}</h${level}>`)
        toc.push({ level, title: block.text, href: `${chapter.file}#${id}` })
        break
      }
      case "Paragraph":
        parts.push(`<p>${inlineXhtml(block.text, block.marks, notes)}</p>`)
        break
      case "Footnote": {
        const id = noteIds?.notes.get(block)
        const text = inlineXhtml(block.text, block.marks, notes)
        parts.push(
          `<aside epub:type="footnote"${id === undefined ? "" : ` id="fn-${id}"`}><p>${
            escapeXml(block.label)
          } ${text}</p></aside>`
        )
        break
      }
      case "List":
        parts.push(listXhtml(block, notes))
        break
      case "Code":
        parts.push(`<pre><code>${escapeXml(block.text)}</code></pre>`)
        break
      case "Table":
        parts.push(
          `<table><tbody>${
            block.rows.map((row, r) =>
              `<tr>${
                row.map((cell, i) => `<td>${inlineXhtml(cell, block.marks?.[r]?.[i] ?? [], notes)}</td>`).join("")
              }</tr>`
            ).join("")
          }</tbody></table>`
        )
        break
      case "Figure": {
        const file = imageFile(images, imagesByContent, block)
        const alt = escapeXml(block.alt ?? "")
        parts.push(`<figure><img src="${file}" alt="${alt}" width="${block.width}" height="${block.height}"/></figure>`)
        break
      }
    }
    if (terms) {
      terms = false
      if (describes.has(block._tag) && parts.length === start + 1) parts[start] = `<dd>${parts[start]}</dd></dl>`
      else parts.splice(start, 0, "<dd></dd></dl>")
    }
  }
  if (terms) parts.push("<dd></dd></dl>")
  if (parts.length === 0) parts.push(`<p>${escapeXml(chapter.title)}</p>`)
  return xhtml(language, chapter.title, parts.join("\n"))
}

const contentIdentifier = (document: Document.Document): string => {
  const parts: Array<string> = [document.title]
  for (const block of document.blocks) {
    if (block._tag === "Paragraph" || block._tag === "Heading" || block._tag === "Term" || block._tag === "Footnote") {
      parts.push(block.text)
    } else if (block._tag === "List") parts.push(block.items.map((item) => item.text).join("\n"))
    else if (block._tag === "Code") parts.push(block.text)
  }
  const hash = Crypto.createHash("sha256").update(parts.join(""))
  const hex = hash.digest("hex")
  // Shaped as a version 5 UUID (name-based) so epubcheck accepts the urn:uuid form.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${
    hex.slice(20, 32)
  }`
}

/**
 * The book as EPUB 3 bytes.
 *
 * @since 0.1.0
 * @category rendering
 */
export const build = (document: Document.Document, options: Options = {}): Uint8Array => {
  const language = document.language
  const identifier = options.identifier ?? contentIdentifier(document)
  const date = options.modified ?? new Date()
  const modified = date.toISOString().replace(/\.\d{3}Z$/, "Z")
  const title = document.title.trim() === "" ? "Untitled" : document.title
  const chapters = splitChapters(document)
  const toc: Array<TocEntry> = []
  const images: Array<Image> = []
  const imagesByContent: ImagesByContent = { byKey: new Map(), byData: new Map() }
  const files: Array<ZipEntry> = []
  const text = (name: string, content: string) => files.push({ name, data: Buffer.from(content, "utf8"), store: false })
  // The OCF container requires `mimetype` first and uncompressed, so readers can sniff the type.
  files.push({ name: "mimetype", data: Buffer.from("application/epub+zip", "latin1"), store: true })
  text(
    "META-INF/container.xml",
    `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles>
<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
</rootfiles>
</container>
`
  )
  const noteIds = document.blocks.some((block) => block._tag === "Footnote") ? pairNotes(document.blocks) : undefined
  const noteFiles = new Map<string, string>()
  for (const chapter of noteIds === undefined ? [] : chapters) {
    for (const block of chapter.blocks) {
      const id = block._tag === "Footnote" ? noteIds!.notes.get(block) : undefined
      if (id !== undefined) noteFiles.set(id, chapter.file)
    }
  }
  for (const chapter of chapters) {
    text(`OEBPS/${chapter.file}`, renderChapter(chapter, toc, images, imagesByContent, language, noteIds, noteFiles))
  }
  const tocEntries = toc.length > 0
    ? toc
    : chapters.map((chapter) => ({ level: 1, title: chapter.title, href: chapter.file }))
  const tree = buildTree(tocEntries)
  text(
    "OEBPS/nav.xhtml",
    xhtml(language, title, `<nav epub:type="toc" id="toc"><h1>${escapeXml(title)}</h1>${navList(tree)}</nav>`)
  )
  text(
    "OEBPS/toc.ncx",
    `<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="${language}">
<head><meta name="dtb:uid" content="${escapeXml(identifier)}"/></head>
<docTitle><text>${escapeXml(title)}</text></docTitle>
<navMap>${ncxPoints(tree, { value: 0 })}</navMap>
</ncx>
`
  )
  for (const image of images) files.push({ name: `OEBPS/${image.file}`, data: image.data, store: true, crc: image.crc })
  const rtl = rtlLanguages.has(language)
  text(
    "OEBPS/content.opf",
    `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="${language}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="uid">${escapeXml(identifier)}</dc:identifier>
<dc:title>${escapeXml(title)}</dc:title>
<dc:language>${language}</dc:language>
<meta property="dcterms:modified">${modified}</meta>
</metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
${
      chapters.map((chapter, i) => `<item id="c${i + 1}" href="${chapter.file}" media-type="application/xhtml+xml"/>`)
        .join("\n")
    }
${images.map((image, i) => `<item id="img${i + 1}" href="${image.file}" media-type="${image.mediaType}"/>`).join("\n")}
</manifest>
<spine toc="ncx"${rtl ? " page-progression-direction=\"rtl\"" : ""}>
${chapters.map((_, i) => `<itemref idref="c${i + 1}"/>`).join("\n")}
</spine>
</package>
`
  )
  return zip(files, date)
}
