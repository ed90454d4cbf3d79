/**
 * A minimal valid EPUB 3 (mimetype first and stored, container, package document, navigation
 * document, one chapter), for the simulated converter's output.
 */
import { strToU8, zipSync } from "fflate"

export const escapeXml = (text: string): string =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&apos;" })[c]!)
    // Characters XML 1.0 does not allow at all.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")

const container = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`

const dosEpoch = Date.UTC(1980, 0, 2)
const dosEnd = Date.UTC(2099, 11, 30)

export interface EpubInput {
  readonly identifier: string
  readonly title: string
  readonly paragraphs: ReadonlyArray<string>
  /** Epoch milliseconds, for `dcterms:modified` and the zip entries' times. */
  readonly modifiedAt: number
}

export const buildEpub = (input: EpubInput): Uint8Array => {
  const title = escapeXml(input.title)
  const modified = new Date(input.modifiedAt).toISOString().replace(/\.\d{3}Z$/, "Z")
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="en">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="uid">urn:uuid:${escapeXml(input.identifier)}</dc:identifier>
    <dc:title>${title}</dc:title>
    <dc:language>en</dc:language>
    <meta property="dcterms:modified">${modified}</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="chapter-1" href="chapter-1.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine>
    <itemref idref="chapter-1"/>
  </spine>
</package>
`
  const nav = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en" lang="en">
<head><title>${title}</title></head>
<body>
  <nav epub:type="toc" id="toc">
    <h1>Contents</h1>
    <ol><li><a href="chapter-1.xhtml">${title}</a></li></ol>
  </nav>
</body>
</html>
`
  const chapter = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head><title>${title}</title></head>
<body>
  <h1>${title}</h1>
${input.paragraphs.map((p) => `  <p>${escapeXml(p)}</p>`).join("\n")}
</body>
</html>
`
  // Zip (DOS) times start in 1980; a TestClock starts at 1970.
  const mtime = new Date(Math.min(Math.max(input.modifiedAt, dosEpoch), dosEnd))
  return zipSync({
    mimetype: [strToU8("application/epub+zip"), { level: 0 }],
    "META-INF/container.xml": strToU8(container),
    "OEBPS/content.opf": strToU8(opf),
    "OEBPS/nav.xhtml": strToU8(nav),
    "OEBPS/chapter-1.xhtml": strToU8(chapter)
  }, { level: 6, mtime })
}
