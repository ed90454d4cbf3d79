/**
 * A screen that understands the few control sequences the live view writes (cursor to a previous
 * line, erase line, erase below, carriage return, line feed; modes and colours ignored), so a unit
 * test can see what the frame leaves on screen. The tmux test checks the same on a real terminal.
 */
const escape = String.fromCharCode(0x1b)

export class Screen {
  private readonly rows: Array<Array<string>> = [[]]
  private row = 0
  private column = 0
  /** Widest line ever written, for the fitting checks. */
  written = ""

  constructor(readonly columns: number) {}

  write(text: string): void {
    this.written += text
    const pattern = new RegExp(`${escape}\\[([?\\d;]*)([A-Za-z])|([\\s\\S])`, "g")
    for (const match of text.matchAll(pattern)) {
      const [, parameters, command, char] = match
      if (char !== undefined) this.put(char)
      else this.control(parameters ?? "", command!)
    }
  }

  private control(parameters: string, command: string): void {
    if (parameters.startsWith("?") || command === "m") return
    const n = parameters === "" ? 1 : Number(parameters)
    if (command === "F") {
      this.row = Math.max(0, this.row - n)
      this.column = 0
    } else if (command === "K" && parameters === "2") {
      this.rows[this.row] = []
    } else if (command === "J") {
      this.rows[this.row] = this.line(this.row).slice(0, this.column)
      this.rows.length = this.row + 1
    } else {
      throw new Error(`unexpected control sequence ${parameters}${command}`)
    }
  }

  private line(row: number): Array<string> {
    while (this.rows.length <= row) this.rows.push([])
    return this.rows[row]!
  }

  private put(char: string): void {
    if (char === "\n") {
      this.row++
      this.column = 0
      this.line(this.row)
    } else if (char === "\r") {
      this.column = 0
    } else {
      if (this.column >= this.columns) this.put("\n")
      this.line(this.row)[this.column++] = char
    }
  }

  /** The screen's lines, without the empty last one the cursor sits on. */
  lines(): ReadonlyArray<string> {
    const lines = this.rows.map((cells) => Array.from(cells, (cell) => cell ?? " ").join("").trimEnd())
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop()
    return lines
  }
}
