import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
import * as Layout from "../src/internal/layout.js"

const para = (text: string): Document.Paragraph => ({ _tag: "Paragraph", text })
const pageBreak = (page: number): Document.Block => ({ _tag: "PageBreak", page })
const texts = (blocks: ReadonlyArray<Document.Block>) =>
  blocks.map((block) => block._tag === "Paragraph" ? block.text : block._tag)

describe("a Chinese or Japanese paragraph cut by a page end", () => {
  it("goes on when the cut falls between two ideographs, without a space", () => {
    const merged = Layout.mergeSplitParagraphs([
      para("从文件内容上看，两者最显著的不同在于使用 \\documentstyle 命令定"),
      pageBreak(7),
      para("义文档类型以及所包含宏包，如")
    ])
    assert.deepStrictEqual(texts(merged), [
      "从文件内容上看，两者最显著的不同在于使用 \\documentstyle 命令定义文档类型以及所包含宏包，如",
      "PageBreak"
    ])
  })

  it("stays apart after a full stop, and after a Latin word", () => {
    const ended = [para("这是第一段。"), pageBreak(2), para("第二段开始")]
    assert.deepStrictEqual(texts(Layout.mergeSplitParagraphs(ended)), ["这是第一段。", "PageBreak", "第二段开始"])
    const latin = [para("see the manual"), pageBreak(2), para("第二段开始")]
    assert.deepStrictEqual(texts(Layout.mergeSplitParagraphs(latin)), ["see the manual", "PageBreak", "第二段开始"])
  })
})
