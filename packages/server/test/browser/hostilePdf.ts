/**
 * A PDF whose text layer is hostile to a page that shows it: a script element, an image whose
 * error handler runs script, and a `javascript:` link, as plain text lines under a heading.
 */
import { PDFDocument, StandardFonts } from "pdf-lib"

export const hostileLines = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(2)>",
  "[click me](javascript:alert(3))"
] as const

export const hostilePdf = async (): Promise<Uint8Array> => {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const page = pdf.addPage([595, 842])
  page.drawText("Hostile text", { x: 72, y: 760, size: 24, font: bold })
  hostileLines.forEach((line, i) => page.drawText(line, { x: 72, y: 700 - i * 24, size: 11, font }))
  page.drawText("The lines above must show as text.", { x: 72, y: 600, size: 11, font })
  return pdf.save({ useObjectStreams: false })
}
