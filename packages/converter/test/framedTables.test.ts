import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import * as Engine from "../src/internal/engine.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "./support/engineOptions.js"

describe("tables ruled around every cell", () => {
  it.effect(
    "FrameMaker's row borders, stroked as one path of separate lines, keep each wrapped row whole",
    () =>
      Effect.gen(function*() {
        const pdf = readFileSync(new URL("../../../corpus/fidelity/dev/opensm-release-notes.pdf", import.meta.url))
        const read = yield* Engine.readDocument(pdf, engineOptions(), "markdown")
        const markdown = Markdown.render(read.document)
        // A cell wrapped over three lines is one cell of its row, not three rows nor a paragraph.
        assert.match(
          markdown,
          /^\| Authentication \| C14-67 \| On SubnGet\(SMInfo\) and SubnSet\(SMInfo\) - if M\\_Key is not zero then the SM shall generate a SubnGetResp if the M\\_Key is matching or silently drop the packet if M\\_Key is not matching \|$/m
        )
        assert.match(markdown, /^\| MT25208 InfiniHost III Ex \| 4\.5\.0 \(and later\) \|$/m)
        assert.notMatch(markdown, /^\| {2}\| {2}\| one SubnSet method/m)
      }),
    60_000
  )
})
