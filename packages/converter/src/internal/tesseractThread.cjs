/*
 * Entry point of tesseract.js's worker thread. Tesseract prints diagnostics ("Image too small to
 * scale!!", "Line cannot be recognized!!") through the thread's stdout and stderr, which Node pipes
 * to the process's own: a library must not write there. Before tesseract.js's worker script loads,
 * both streams are turned into messages that tesseract.js hands to the `logger` of `createWorker`
 * (status "tesseract output"), where the converter logs them through Effect's logger.
 */
"use strict"
const { parentPort } = require("node:worker_threads")

const capture = (stream, name) => {
  stream.write = (chunk, encoding, callback) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")
    parentPort.postMessage({ status: "progress", data: { status: "tesseract output", stream: name, text } })
    const done = typeof encoding === "function" ? encoding : callback
    if (typeof done === "function") done()
    return true
  }
}
capture(process.stdout, "stdout")
capture(process.stderr, "stderr")

require(require.resolve("tesseract.js/src/worker-script/node/index.js"))
