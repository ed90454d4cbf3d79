// Prints vitest's totals as one plain line ("N passed, N failed, N skipped") for CI logs, and fails
// the run when any test failed or was skipped.
import * as Fs from "node:fs"

const file = process.argv[2] ?? ".vitest-results.json"
const results = JSON.parse(Fs.readFileSync(file, "utf8"))
const skipped = results.numPendingTests + results.numTodoTests
console.log(`${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`)
// A skipped test is a check that did not run: it fails the run as a failed one would.
if (skipped > 0) console.error("Some tests were skipped; every test must run.")
process.exit(results.numFailedTests === 0 && skipped === 0 && results.numTotalTests > 0 ? 0 : 1)
