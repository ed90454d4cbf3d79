/**
 * Console lines: a shell's prompt, then a command and its arguments (`$ make`, `vore$ dchroot unstable`),
 * or an environment variable set alone on its line (`TEXINPUTS=.:/my/macro/dir:`).
 */

/** A prompt: `$` or `>` alone, a host's (`vore$`, `user@host:~$`), or Windows' (`C:\>`); a space after it. */
const prompt = /^(?:[$>]|[\w.-]+(?:@[\w.-]+)?(?::[~\w/.-]*)?\$|[A-Za-z]:\\[^\s>]*>)\s+/
/** A command: a lower-case program name, then its arguments or nothing. */
const command = /^[a-z][\w.+-]*(?:\s|$)/
/** Five plain words in a row: a sentence, not a command line. */
const words = /(?:\b[a-z]+ ){4}[a-z]+\b/
const maxLength = 100
/** A variable's name in capitals, then a value that is no number (a path, a word). */
const assignment = /^[A-Z][A-Z0-9_]{2,}=(?!\d*$)[^\s=]+$/

export const isPromptLine = (text: string): boolean => {
  const line = text.trim()
  if (assignment.test(line)) return true
  const found = prompt.exec(line)
  if (found === null || line.length > maxLength) return false
  const rest = line.slice(found[0].length)
  return command.test(rest) && !words.test(rest)
}
