// Prints vitest's totals as one plain line ("N passed, N failed, N skipped") for CI logs.
import * as Fs from "node:fs"

const file = process.argv[2] ?? ".vitest-results.json"
const results = JSON.parse(Fs.readFileSync(file, "utf8"))
const skipped = results.numPendingTests + results.numTodoTests
console.log(`${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`)
process.exit(results.numFailedTests === 0 && results.numTotalTests > 0 ? 0 : 1)
