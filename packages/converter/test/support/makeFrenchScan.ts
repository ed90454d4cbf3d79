/**
 * Makes `corpus/scanned/french-declaration-1789.pdf`: the first articles of the Déclaration des
 * droits de l'homme et du citoyen (1789, public domain) set in Times with pdf-lib, rendered by
 * PDFium and saved as an image-only page. Run: `npx tsx test/support/makeFrenchScan.ts`.
 */
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { PDFDocument, StandardFonts } from "pdf-lib"
import { corpusFile } from "./corpus.js"
import { scanOf } from "./scans.js"

/** The text, as printed; the test looks for its accented words. */
const frenchText = [
  "Déclaration des droits de l'homme et du citoyen",
  "Article premier. Les hommes naissent et demeurent libres et égaux en droits.",
  "Les distinctions sociales ne peuvent être fondées que sur l'utilité commune.",
  "Article 2. Le but de toute association politique est la conservation des",
  "droits naturels et imprescriptibles de l'homme. Ces droits sont la liberté,",
  "la propriété, la sûreté, et la résistance à l'oppression.",
  "Article 3. Le principe de toute souveraineté réside essentiellement dans la",
  "Nation. Nul corps, nul individu ne peut exercer d'autorité qui n'en émane",
  "expressément.",
  "Article 4. La liberté consiste à pouvoir faire tout ce qui ne nuit pas à",
  "autrui : ainsi, l'exercice des droits naturels de chaque homme n'a de bornes",
  "que celles qui assurent aux autres membres de la société la jouissance de",
  "ces mêmes droits. Ces bornes ne peuvent être déterminées que par la loi."
]

const main = Effect.gen(function*() {
  const typeset = yield* Effect.promise(async () => {
    const document = await PDFDocument.create()
    const font = await document.embedFont(StandardFonts.TimesRoman)
    const page = document.addPage([595, 842])
    frenchText.forEach((line, i) => page.drawText(line, { x: 60, y: 770 - i * 22, size: i === 0 ? 16 : 13, font }))
    return document.save()
  })
  writeFileSync(corpusFile("scanned/french-declaration-1789.pdf"), yield* scanOf(typeset))
})

Effect.runPromise(main)
