import { assert, describe, it } from "@effect/vitest"
import * as Live from "../src/internal/view/live.js"
import { plain } from "../src/internal/view/style.js"
import { completed, job, sessionId } from "./support/events.js"
import { Screen } from "./support/screen.js"

const setup = (columns: number, rows = 20) => {
  const screen = new Screen(columns)
  let now = 0
  const live = Live.make(
    { write: (text) => screen.write(text), columns: () => screen.columns, rows: () => rows },
    plain,
    3,
    () => now
  )
  return { screen, live, at: (ms: number) => void (now = ms) }
}

describe("the live view on a terminal", () => {
  it("redraws its frame in place, with lasting lines above it and nothing left behind", () => {
    const { at, live, screen } = setup(80)
    live.print("Backend: this machine")
    for (const i of [0, 1, 2]) live.event({ _tag: "Queued", job: job(i) }, undefined)
    live.event({ _tag: "Submitted", job: job(0), sessionId: sessionId(0), resumed: false }, undefined)
    live.event({ _tag: "Submitted", job: job(1), sessionId: sessionId(1), resumed: false }, undefined)
    at(3_000)
    live.event({ _tag: "Progress", job: job(0), sessionId: sessionId(0), progress: 50 }, undefined)
    live.tick()
    assert.deepStrictEqual(screen.lines().map((line) => line.replace(/^ {2}\S /, "  * ")), [
      "Backend: this machine",
      "  * doc-0.pdf     converting  [████████░░░░░░░]  50%  0:03",
      "  * doc-1.pdf     submitted   [░░░░░░░░░░░░░░░]   --  0:03",
      "  0/3 done · 0 failed · 2 running · 1 queued · 0:03"
    ])

    at(4_000)
    live.event(completed(0), "✓ doc-0.pdf → out/doc-0.md")
    live.tick()
    live.tick()
    assert.deepStrictEqual(screen.lines().slice(0, 2), ["Backend: this machine", "✓ doc-0.pdf → out/doc-0.md"])
    assert.match(screen.lines()[2]!, /^ {2}\S doc-1\.pdf +submitted/)
    assert.match(
      screen.lines()[3]!,
      /^ {2}1\/3 done · 0 failed · 1 running · 1 queued · 0\.25 docs\/s · ETA 0:08 · 0:04$/
    )
    assert.strictEqual(screen.lines().length, 4)
  })

  it("a lasting line longer than the screen wraps above the frame without breaking the next redraw", () => {
    const { live, screen } = setup(30)
    live.event({ _tag: "Queued", job: job(0) }, undefined)
    live.event({ _tag: "Submitted", job: job(0), sessionId: sessionId(0), resumed: false }, undefined)
    live.print("x".repeat(70))
    live.tick()
    live.tick()
    assert.deepStrictEqual(screen.lines().slice(0, 3), ["x".repeat(30), "x".repeat(30), "x".repeat(10)])
    assert.strictEqual(screen.lines().length, 5)
    assert.match(screen.lines()[4]!, /^ {2}0\/3 /)
  })

  it("closes on its total line, shows the cursor, and prints after it from then on", () => {
    const { live, screen } = setup(80)
    live.event({ _tag: "Queued", job: job(0) }, undefined)
    live.event({ _tag: "Submitted", job: job(0), sessionId: sessionId(0), resumed: false }, undefined)
    live.tick()
    live.close()
    live.print("summary")
    assert.deepStrictEqual(screen.lines(), ["  0/3 done · 0 failed · 1 running · 2 queued · 0:00", "summary"])
    assert.isTrue(screen.written.includes("\x1b[?25l") && screen.written.endsWith("\x1b[?2026lsummary\n"))
    assert.isTrue(screen.written.lastIndexOf("\x1b[?25h") > screen.written.lastIndexOf("\x1b[?25l"))
  })

  it("wraps every redraw in one synchronized update", () => {
    const writes: Array<string> = []
    const live = Live.make({ write: (text) => writes.push(text), columns: () => 80, rows: () => 24 }, plain, 1, () => 0)
    live.tick()
    live.print("line")
    live.tick()
    for (const text of writes) {
      assert.isTrue(text.startsWith("\x1b[?2026h") && text.endsWith("\x1b[?2026l"), JSON.stringify(text))
    }
  })
})
