/**
 * The documents of the structure benchmark (`corpus/structure/`): which are tuned on ("dev") and
 * which were never looked at while the layout rules were written ("heldout"), and where each came
 * from. `structureCorpus.ts` regenerates the files from these entries.
 */
export interface StructureDocument {
  readonly name: string
  readonly set: "dev" | "heldout"
  readonly kind: "readme" | "texinfo"
  /** The README's path in the repository's `node_modules` (pinned by the lockfile). */
  readonly from?: string
  /** Rendered with `pandoc --number-sections`, so headings carry visible numbers. */
  readonly numbered?: boolean
}

const readme = (pkg: string, version: string, set: StructureDocument["set"], numbered = false): StructureDocument => ({
  name: `${pkg}-readme`,
  set,
  kind: "readme",
  from: `node_modules/.pnpm/${pkg}@${version}/node_modules/${pkg}/README.md`,
  numbered
})

export const structureDocuments: ReadonlyArray<StructureDocument> = [
  readme("picomatch", "4.0.7", "dev", true),
  readme("acorn", "8.19.0", "dev"),
  readme("cac", "6.7.14", "dev"),
  readme("ignore", "5.3.2", "dev", true),
  readme("js-yaml", "4.3.2", "dev"),
  readme("node-addon-api", "7.1.1", "dev"),
  { name: "R-intro", set: "dev", kind: "texinfo" },
  readme("semver", "7.8.6", "heldout", true),
  readme("pure-rand", "6.1.0", "heldout"),
  readme("toml", "4.3.0", "heldout"),
  readme("tesseract.js", "7.0.0", "heldout"),
  readme("magic-string", "0.30.21", "heldout", true),
  { name: "R-data", set: "heldout", kind: "texinfo" }
]
