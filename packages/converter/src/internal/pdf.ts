/**
 * PDF access through PDFium: open a document (closed with its scope), read its title and outline,
 * and read pages one at a time as positioned text items, placed images and, for OCR, a rendering.
 * One module per concern; this one is their common front.
 */
export { open, OpenDocument, title } from "./pdfDocument.js"
export { outline, outlineTopDown } from "./pdfOutline.js"
export { makeDeferred, type PageContent, readPage, settleFigures } from "./pdfPage.js"
export { render, type Rendering } from "./pdfRender.js"
