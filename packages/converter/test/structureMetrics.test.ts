/** The structure bench's table rows: matched against the reference's, not only counted. */
import { assert, describe, it } from "@effect/vitest"
import { compare, structure } from "../bench/structureMetrics.js"

const reference = structure(
  [
    "## 2.1 Tools",
    "",
    "| package | popcon | size |",
    "| --- | --- | --- |",
    "| `make` | V:147 | 1592 |",
    "| `cmake` | V:16 | 28897 |",
    ""
  ].join("\n")
)

describe("the structure bench's table rows", () => {
  it("finds a reference row however its cells were cut", () => {
    const candidate = structure(
      ["| package popcon | size |", "| --- | --- |", "| `make` V:147 | 1592 |", "| `cmake` V:16 | 28897 |"].join("\n")
    )
    const comparison = compare(reference, candidate)
    assert.deepStrictEqual(comparison.tableRowsFound, { hits: 3, total: 3 })
    assert.deepStrictEqual(comparison.tableRowPrecision, { hits: 3, total: 3 })
  })

  it("counts headings read as a table as rows that are not the reference's", () => {
    const candidate = structure(
      [
        "| **2.1** | **Tools** |",
        "| --- | --- |",
        "| **2.1.1** | **Make** |",
        "",
        "| package | popcon | size |",
        "| --- | --- | --- |",
        "| `make` | V:147 | 1592 |",
        ""
      ].join("\n")
    )
    const comparison = compare(reference, candidate)
    assert.deepStrictEqual(comparison.tableRows, { ours: 4, reference: 3 })
    assert.deepStrictEqual(comparison.tableRowsFound, { hits: 2, total: 3 })
    assert.deepStrictEqual(comparison.tableRowPrecision, { hits: 2, total: 4 })
  })
})

describe("the structure bench's list items", () => {
  it("compares items past a letter or roman label kept in their text, not past a word", () => {
    const numbered = structure(
      ["1. Accompany the work.", "2. Use a shared library.", "3. Yes. Verify it.", ""].join("\n")
    )
    const labelled = structure(
      ["- (a) Accompany the work.", "- ii. Use a shared library.", "- Verify it.", ""].join("\n")
    )
    assert.deepStrictEqual(compare(numbered, labelled).listItems, { hits: 2, total: 3 })
  })
})

describe("the structure bench's headings", () => {
  it("counts a candidate heading the reference does not have against precision, not recall", () => {
    const reference = structure(["## 1 Tools", "", "Text.", "", "## 2 Usage", "", "Figure 1: A plot.", ""].join("\n"))
    const candidate = structure(
      ["## 1 Tools", "", "Text.", "", "### Figure 1: A plot.", "", "## 2 Usage", "", "## Note", ""].join("\n")
    )
    const comparison = compare(reference, candidate)
    assert.deepStrictEqual(comparison.headings, { hits: 2, total: 2 })
    assert.deepStrictEqual(comparison.headingPrecision, { hits: 2, total: 4 })
  })
})
