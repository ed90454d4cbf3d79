/**
 * The live view on a terminal: a frame (running documents and the total) redrawn in place, and
 * lasting lines (a document's end, a warning) printed above it. Every redraw is one write, wrapped
 * in the terminal's synchronized-output mode where it has one, and overwrites lines instead of
 * clearing them first, so the frame never flickers.
 */
import type { BatchEvent } from "@pdf-transform/stream/BatchEvent"
import { frame } from "./render.js"
import * as State from "./state.js"
import { showCursor, type Style } from "./style.js"
import { width } from "./width.js"

/** Where the view draws: a terminal's stream, or a recording in tests. */
export interface Output {
  readonly write: (text: string) => void
  readonly columns: () => number
  readonly rows: () => number
}

export interface Live {
  /** Folds an event into the view; a lasting line (when given) is printed above the frame. */
  readonly event: (event: BatchEvent, lasting: string | undefined) => void
  /** Prints a lasting line above the frame. */
  readonly print: (line: string) => void
  /** Redraws the frame (the clock, the spinner, the bars). */
  readonly tick: () => void
  /** Draws the last frame: the total line only, kept on screen; the cursor shows again. */
  readonly close: () => void
  readonly state: () => State.State
}

const syncStart = "\x1b[?2026h"
const syncEnd = "\x1b[?2026l"
const hideCursor = "\x1b[?25l"
const eraseLine = "\x1b[2K"
const eraseBelow = "\x1b[J"

/** Rows the lines take on a screen `columns` wide (a line longer than the screen wraps). */
const rowsTaken = (lines: ReadonlyArray<string>, columns: number): number =>
  lines.reduce((rows, line) => rows + Math.max(1, Math.ceil(width(line) / Math.max(1, columns))), 0)

export const make = (output: Output, style: Style, total: number, now: () => number): Live => {
  let state = State.initial(total, now())
  let drawn: ReadonlyArray<string> = []
  let closed = false

  const draw = (lasting: ReadonlyArray<string>, final: boolean) => {
    const columns = Math.max(20, output.columns())
    const screen = { columns, rows: Math.max(4, output.rows()) }
    const lines = frame(state, now(), screen, style, { documents: !final })
    const rows = rowsTaken(drawn, columns)
    let text = syncStart + (drawn.length === 0 ? hideCursor : `\r\x1b[${rows}F`)
    // Lines above may be longer than the frame, and a shorter frame leaves rows: erased in the same write.
    if (lasting.length > 0 || lines.length < drawn.length || rows !== drawn.length) text += eraseBelow
    for (const line of lasting) text += `${line}\n`
    for (const line of lines) text += `${eraseLine}${line}\n`
    text += final ? showCursor + syncEnd : syncEnd
    output.write(text)
    drawn = lines
  }

  return {
    event: (event, lasting) => {
      state = State.update(state, event, now())
      if (!closed && lasting !== undefined) draw([lasting], false)
    },
    print: (line) => {
      if (closed) output.write(`${line}\n`)
      else draw([line], false)
    },
    tick: () => {
      if (!closed) draw([], false)
    },
    close: () => {
      if (closed) return
      draw([], true)
      closed = true
    },
    state: () => state
  }
}
