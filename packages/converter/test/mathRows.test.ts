import { assert, describe, it } from "vitest"
import { groupRows } from "../src/internal/layout/lines.js"
import { item } from "./support/textItems.js"

describe("rows of inline math", () => {
  it("a larger symbol between two lines moves no baseline: the next line's superscripts stay on it", () => {
    const rows = groupRows([
      item("Assume a universe E and a symmetric function", 90, 662.9, 9),
      // A bar of size 10 drawn between the two baselines, then the next line's superscripts.
      item("-", 340, 666.7, 10),
      item("yy", 95, 670.1, 6),
      item("$", 90, 673.9, 9),
      item(", where", 103, 673.9, 9)
    ])
    assert.deepStrictEqual(rows.map((row) => row.items.map((part) => part.text).join(" ")), [
      "Assume a universe E and a symmetric function -",
      "$ yy , where"
    ])
  })
})
