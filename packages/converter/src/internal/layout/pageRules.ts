/** What a page's lines are turned into by the document's measures, and the heading levels they give. */
import type { OutlinedLine } from "./headings.js"
import { titleNumberDepth } from "./headings.js"
import type { Hyphenation } from "./hyphens.js"
import type { Line } from "./model.js"

/** What a page's lines are turned into, and how headings are told from the rest. */
export interface PageRules {
  readonly body: number
  /** The most common distance between body lines, in font sizes. */
  readonly lineRatio: number
  readonly levels: ReadonlyMap<number, number>
  /** Sizes under the text's that `levels` holds: an outline's unlisted headings' (`unlistedHeadingLevels`). */
  readonly underSizes?: ReadonlySet<number> | undefined
  readonly outlineLines: ReadonlyMap<Line, OutlinedLine>
  /** Whether `levels` apply yet: in an outlined document, from its first outlined heading on (shared by the pages). */
  readonly sizeLevels: { active: boolean }
  /** Bold body-size lines with a heading's space around them (`spacedHeadings`), and their level. */
  readonly spaced: ReadonlySet<Line>
  readonly spacedLevel: number
  /** Chapter titles in bold a little larger than the text (`boldChapters`), at a chapter number's level. */
  readonly chapters?: ReadonlySet<Line> | undefined
  /** Bold headings a little smaller than the text (`smallHeadings`), and their depth under `spacedLevel`. */
  readonly small: ReadonlyMap<Line, number>
  /** Bold chapter numbers and titles over their text (`numberedHeadings`), at their number's level. */
  readonly numbered: ReadonlySet<Line>
  /** Added to a section number's depth to give its level (`numberingOffset`). */
  readonly numberOffset: number
  /** Lines no size or weight makes a heading: captions (`notHeadings`). */
  readonly plain: ReadonlySet<Line>
  readonly hyphenation?: Hyphenation | undefined
}

/** A heading's level by its section number's depth, in the document's levels. */
export const levelOf = (depth: number | undefined, rules: PageRules): number | undefined =>
  depth === undefined ? undefined : Math.min(6, depth + rules.numberOffset)
export const numberedLevel = (text: string, rules: PageRules): number | undefined =>
  levelOf(titleNumberDepth(text), rules)

export const smallLevel = (line: Line, rules: PageRules): number | undefined => {
  const depth = rules.small.get(line)
  return depth === undefined ? undefined : Math.min(6, rules.spacedLevel + depth)
}
