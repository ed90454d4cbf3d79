/**
 * The live view's frame: one line per running document and a total line, each cut to the
 * terminal's width (one column spare, so no line wraps) and no more lines than its height.
 */
import { clock } from "../duration.js"
import { unreachable } from "../lines.js"
import * as State from "./state.js"
import type { Style } from "./style.js"
import { fit, printable, truncateStart, width } from "./width.js"

export interface Screen {
  readonly columns: number
  readonly rows: number
}

const spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

const phaseLabel = (doc: State.Running): string => {
  if (doc.phase === "converting" || doc.phase === "uploading") return doc.phase
  return doc.resumed ? "resumed" : "submitted"
}

/** A bar of `columns` cells; empty while the progress is unknown. */
export const bar = (progress: number | undefined, columns: number): string => {
  const filled = progress === undefined ? 0 : Math.round((Math.min(100, Math.max(0, progress)) / 100) * columns)
  return "█".repeat(filled) + "░".repeat(columns - filled)
}

const percent = (progress: number | undefined): string =>
  progress === undefined ? "  --" : `${String(Math.floor(progress)).padStart(3)}%`

/**
 * One running document: `⠋ name  converting  [████░░░░]  42%  0:07`. Narrow terminals lose the
 * bar first, then the state, and the name keeps its end (`…folder/file.pdf`).
 */
export const documentLine = (
  doc: State.Running,
  now: number,
  columns: number,
  style: Style,
  /** The longest name among the running documents: the name column is no wider. */
  longestName: number = Number.MAX_SAFE_INTEGER
): string => {
  const room = columns - 1
  const spin = spinner[Math.floor(now / 100) % spinner.length]!
  const label = phaseLabel(doc)
  const elapsed = clock(now - doc.since)
  const pct = percent(doc.progress)
  const barColumns = Math.min(24, Math.max(8, Math.floor(room / 5)))
  const layouts: ReadonlyArray<{ readonly bar: boolean; readonly label: boolean }> = [
    { bar: true, label: true },
    { bar: false, label: true },
    { bar: false, label: false }
  ]
  for (const layout of layouts) {
    const line = (name: string) =>
      [
        `  ${style.cyan(spin)} ${name}  `,
        layout.label ? fit(label, 10) + "  " : "",
        layout.bar ? `[${style.green(bar(doc.progress, barColumns))}] ` : "",
        `${pct}  ${style.dim(elapsed)}`
      ].join("")
    const nameColumns = Math.min(room - width(line("")), Math.max(12, longestName))
    if (nameColumns < 12 && layout.label) continue
    if (nameColumns < 1) break
    return line(fit(truncateStart(printable(doc.name), nameColumns), nameColumns))
  }
  return fit(`${spin} ${truncateStart(printable(doc.name), room - 2)}`, room).trimEnd()
}

/** The parts of the total line, most important first; the ones that do not fit are left out. */
export const totalLine = (state: State.State, now: number, columns: number, style: Style): string => {
  const room = columns - 1
  const finished = State.ended(state)
  const perSecond = State.rate(state, now)
  const eta = State.eta(state, now)
  const required = [
    `${state.done}/${state.total} done`,
    state.failed > 0 ? style.red(`${state.failed} failed`) : `${state.failed} failed`,
    `${state.running.size} running`,
    `${Math.max(0, state.total - finished - state.running.size)} queued`,
    ...(state.notStarted > 0 ? [`${state.notStarted} not started`] : [])
  ]
  const optional = [
    perSecond === undefined ? undefined : `${perSecond >= 1 ? perSecond.toFixed(1) : perSecond.toFixed(2)} docs/s`,
    eta === undefined || finished === state.total ? undefined : `ETA ${clock(eta)}`,
    style.dim(clock(now - state.startedAt))
  ]
  let line = `  ${required.join(" · ")}`
  if (width(line) > room) {
    line = `  ${state.done}/${state.total} ✓ ${state.failed} ✗ ${state.running.size} ▶`
    return width(line) > room ? fit(`${state.done}/${state.total}`, room).trimEnd() : line
  }
  for (const part of optional) {
    if (part === undefined) continue
    const longer = `${line} · ${part}`
    if (width(longer) <= room) line = longer
  }
  return line
}

/**
 * The whole frame: running documents (as many as the height allows), then the total line; without
 * `documents` (the last frame, kept on screen) the total line alone.
 */
export const frame = (
  state: State.State,
  now: number,
  screen: Screen,
  style: Style,
  options: { readonly documents: boolean } = { documents: true }
): ReadonlyArray<string> => {
  if (!options.documents) return [totalLine(state, now, screen.columns, style)]
  const docs = [...state.running.values()].sort((a, b) => a.index - b.index)
  const stopping = state.stopping === undefined ? [] : [
    style.yellow(
      fit(
        `  Stopping (${state.stopping}): waiting for the running ones; Ctrl-C again leaves them for the next run`,
        screen.columns - 1
      ).trimEnd()
    )
  ]
  const outage = state.unreachable === undefined ? [] : [
    style.yellow(
      fit(
        `  ${
          unreachable(
            state.unreachable.reason,
            state.unreachable.retryAt === undefined ? undefined : Math.max(0, state.unreachable.retryAt - now)
          )
        }`,
        screen.columns - 1
      ).trimEnd()
    )
  ]
  const notices = [...outage, ...stopping]
  // The frame never takes the whole screen: two rows stay for the lines printed above it.
  const room = Math.max(1, screen.rows - 2 - notices.length - 1)
  const shown = docs.length > room ? docs.slice(0, room - 1) : docs
  const more = docs.length - shown.length
  const longest = Math.max(0, ...shown.map((doc) => width(printable(doc.name))))
  const lines = shown.map((doc) => documentLine(doc, now, screen.columns, style, longest))
  if (more > 0) lines.push(style.dim(fit(`  … and ${more} more running`, screen.columns - 1).trimEnd()))
  return [...lines, ...notices, totalLine(state, now, screen.columns, style)]
}
