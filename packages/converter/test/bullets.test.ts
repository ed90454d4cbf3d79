import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { shapeBullets } from "../src/internal/bullets.js"
import * as Engine from "../src/internal/engine.js"
import type { TextItem } from "../src/internal/layout.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "./support/engineOptions.js"

const item = (text: string, x: number, y: number, size = 12): TextItem => ({
  text,
  x,
  y,
  width: text.length * size * 0.5,
  size,
  rtl: false,
  style: 0
})

const box = (x0: number, y0: number, side: number) => ({ x0, x1: x0 + side, y0, y1: y0 + side })

describe("bullets drawn as shapes", () => {
  it("a small shape just left of a run is its bullet; one far from any run, or too large, is not", () => {
    const items = [item("uses OpenGL for display", 52, 120), item("a paragraph", 28, 200)]
    const bullets = shapeBullets([box(39, 113, 6.6), box(200, 300, 6.6), box(10, 190, 12)], items)
    assert.deepStrictEqual(bullets.map((b) => [b.text, b.x, b.y]), [["•", 39, 120]])
  })

  it("of two runs a shape could mark, the bullet goes to the first the page sets, not the nearest", () => {
    const items = [item("second line", 52, 121), item("first line", 52, 120), item("far below", 52, 400)]
    const bullets = shapeBullets([box(39, 113, 6.6)], items)
    assert.deepStrictEqual(bullets.map((b) => [b.text, b.x, b.y]), [["•", 39, 121]])
  })

  it("a number set on a shape (beamer's numbered ball) gets its item's full stop", () => {
    const items = [item("1", 37, 78.7), item("create slides", 52, 78.7)]
    const bullets = shapeBullets([box(34, 69, 11.6)], items)
    assert.deepStrictEqual(bullets.map((b) => [b.text, b.x, b.y]), [[".", 43, 78.7]])
    // A number beside a shape, not on it, is the text's.
    assert.deepStrictEqual(shapeBullets([box(34, 69, 11.6)], [item("12", 60, 78.7)]), [])
  })

  it("a ball shaded by discs stacked one inside another (beamer through Ghostscript) is one bullet, or one full stop", () => {
    const items = [item("One prototype = one file", 50, 95), item("1", 60.5, 166.6, 6), item("Section Header", 72, 168)]
    // The outer disc is too large to be a bullet of the run; the next is; the smaller ones lie inside it.
    const ball = [7.2, 6.4, 5.9, 5.4, 4.9, 2.2].map((side) => box(38.9 + (6.4 - side) / 2, 87 + (6.4 - side) / 2, side))
    const numbered = [4.1, 3.8, 3.2, 1.8].map((side) => box(58.8 + (4.1 - side) / 2, 163 + (4.1 - side) / 2, side))
    const bullets = shapeBullets([...ball, box(58.3, 162.5, 6), ...numbered], items)
    assert.deepStrictEqual(bullets.map((b) => b.text).sort(), [".", "•"])
  })

  it.effect("beamer's balls, drawn as small forms holding a shading, mark list items", () =>
    Effect.gen(function*() {
      const pdf = readFileSync(new URL("../../../corpus/fidelity/dev/impressive-demo.pdf", import.meta.url))
      const read = yield* Engine.readDocument(pdf, engineOptions(), "markdown")
      const markdown = Markdown.render(read.document)
      assert.match(markdown, /^- uses OpenGL for display$/m)
      assert.match(markdown, /^2\. export them to a PDF file$/m)
    }), 60_000)
})
