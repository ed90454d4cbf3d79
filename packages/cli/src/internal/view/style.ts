/** The few colours the output uses, off when the terminal has none or NO_COLOR is set. */

/** Each colour's SGR codes, opening and closing. */
const codes = { green: [32, 39], red: [31, 39], yellow: [33, 39], cyan: [36, 39], dim: [2, 22], bold: [1, 22] } as const

export type Style = { readonly [K in keyof typeof codes]: (text: string) => string }

const styleOf = (paint: (open: number, close: number) => (text: string) => string): Style => ({
  green: paint(...codes.green),
  red: paint(...codes.red),
  yellow: paint(...codes.yellow),
  cyan: paint(...codes.cyan),
  dim: paint(...codes.dim),
  bold: paint(...codes.bold)
})

export const colored: Style = styleOf((open, close) => (text) =>
  text === "" ? "" : `\x1b[${open}m${text}\x1b[${close}m`
)

export const plain: Style = styleOf(() => (text) => text)

/** Colours for a stream: a TTY, unless NO_COLOR is set (https://no-color.org) or TERM is dumb. */
export const forStream = (isTTY: boolean, env: Readonly<Record<string, string | undefined>>): Style =>
  isTTY && (env.NO_COLOR ?? "") === "" && env.TERM !== "dumb" ? colored : plain

/** Shows the cursor again: the live view hides it while it draws. */
export const showCursor = "\x1b[?25h"
