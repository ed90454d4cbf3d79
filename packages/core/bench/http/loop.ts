/**
 * The baseline of the loopback benchmark: what a user writes by hand with `fetch` and
 * `setTimeout`. Submit, poll every 50 ms until completed, download the result; no retries, no
 * timeouts, no types beyond casts. Kept as plain code on purpose.
 */
import { measure } from "./measure.js"

const base = process.argv[2]!
const pollMs = Number(process.env["BENCH_POLL_MS"] ?? 50)
const headers = { authorization: "Bearer bench-key", "content-type": "application/json", accept: "application/json" }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const convert = async (i: number): Promise<void> => {
  const format = i % 2 === 0 ? "markdown" : "epub"
  const submitted = await fetch(`${base}/v1/pdf-transform-${format}/submit`, {
    method: "POST",
    headers,
    body: JSON.stringify({ pdfURL: "https://files.example.com/paper.pdf", model: "gundam", filename: `doc-${i}` })
  })
  const { sessionID } = (await submitted.json()) as { sessionID: string }
  for (;;) {
    const response = await fetch(`${base}/v1/pdf-transform-${format}/result/${sessionID}`, { headers })
    const status = (await response.json()) as { state: string; data?: { downloadURL: string } }
    if (status.state === "completed") {
      const file = await fetch(status.data!.downloadURL)
      await file.arrayBuffer()
      return
    }
    if (status.state === "failed") throw new Error("conversion failed")
    await sleep(pollMs)
  }
}

measure(async (count, concurrency) => {
  let next = 0
  const worker = async () => {
    while (next < count) await convert(next++)
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
})
