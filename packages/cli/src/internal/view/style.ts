/** The few colours the output uses, off when the terminal has none or NO_COLOR is set. */

export interface Style {
  readonly green: (text: string) => string
  readonly red: (text: string) => string
  readonly yellow: (text: string) => string
  readonly cyan: (text: string) => string
  readonly dim: (text: string) => string
  readonly bold: (text: string) => string
}

const sgr = (open: number, close: number) => (text: string) => text === "" ? "" : `\x1b[${open}m${text}\x1b[${close}m`

export const colored: Style = {
  green: sgr(32, 39),
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  cyan: sgr(36, 39),
  dim: sgr(2, 22),
  bold: sgr(1, 22)
}

const same = (text: string) => text

export const plain: Style = { green: same, red: same, yellow: same, cyan: same, dim: same, bold: same }

/** Colours for a stream: a TTY, unless NO_COLOR is set (https://no-color.org) or TERM is dumb. */
export const forStream = (isTTY: boolean, env: Readonly<Record<string, string | undefined>>): Style =>
  isTTY && (env.NO_COLOR ?? "") === "" && env.TERM !== "dumb" ? colored : plain

/** Shows the cursor again: the live view hides it while it draws. */
export const showCursor = "\x1b[?25h"
