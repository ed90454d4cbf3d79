/** A page of a tagged document: read from its structure tree when the tree is sound, by its layout otherwise. */
import { withContentsLines } from "../layout/contents.js"
import type { Line, OrderedPage, PageText } from "../layout/model.js"
import { pageLines } from "../layout/model.js"
import { orderPage } from "../layout/order.js"
import { treeUnits } from "./blocks.js"
import { glossaryUnits } from "./glossary.js"
import type { TaggedContent, Unit } from "./model.js"
import { artifact } from "./model.js"
import type { Measures, Unsound } from "./sound.js"
import { hasTable, measure, reachedMcids, sideBySide, verdict } from "./sound.js"

/** A page read from its structure tree: its units, in the tree's order. */
export interface TaggedPage {
  readonly _tag: "Tagged"
  readonly page: number
  readonly height: number
  readonly units: ReadonlyArray<Unit>
  /** Its artifacts by line, left out, and counted by the running-head rule with the other pages' lines. */
  readonly artifacts: ReadonlyArray<Line>
}

/** What the soundness rule said of a page with a structure tree. */
export interface PageVerdict {
  readonly page: number
  readonly measures: Measures
  /** Why its tree was not used; undefined when it was. */
  readonly unsound: Unsound | "ocr" | undefined
}

export const isTaggedPage = (page: object): page is TaggedPage => "_tag" in page && page._tag === "Tagged"

/** The page from its tree when sound; text the tree does not reach comes last (furniture, mostly). */
export const arrangePage = (
  page: PageText,
  tagged: TaggedContent | undefined,
  verdicts: Array<PageVerdict>
): OrderedPage | TaggedPage => {
  if (tagged === undefined) return orderPage(page)
  const measures = measure(tagged)
  const early = verdict(measures, 0, 0)
  if (early !== undefined) {
    verdicts.push({ page: page.page, measures, unsound: early })
    return orderPage(page)
  }
  // Blocks side by side on two baselines and a table the layout finds where the tree has none:
  // the tree flattened a table's cells into paragraphs.
  if (!hasTable(tagged.tree) && sideBySide(tagged) >= 2) {
    const ordered = orderPage(page)
    // A contents the layout finds is such a table too (its entries and page numbers side by side).
    if (ordered.items.some((item) => item._tag === "Table" || item._tag === "Contents")) {
      verdicts.push({ page: page.page, measures, unsound: "table" })
      return ordered
    }
  }
  const built = treeUnits(tagged, page.figures)
  const unsound = verdict(measures, built.refuted, built.texts)
  verdicts.push({ page: page.page, measures, unsound })
  if (unsound !== undefined) return orderPage(page)
  const reached = reachedMcids(tagged.tree)
  const lines = (keep: (mcid: number) => boolean) => {
    const items = tagged.items.filter((_, i) => keep(tagged.mcids[i]!))
    return items.length === 0 ? [] : pageLines(withContentsLines([orderPage({ ...page, items, figures: [] })])[0]!)
  }
  const untagged = lines((mcid) => mcid !== artifact && !reached.has(mcid))
  const units: Array<Unit> = glossaryUnits(built.units, tagged.items)
  if (untagged.length > 0) units.push({ _tag: "Lines", lines: untagged, continued: false, continues: false })
  return {
    _tag: "Tagged",
    page: page.page,
    height: page.height,
    units,
    artifacts: lines((mcid) => mcid === artifact)
  }
}
