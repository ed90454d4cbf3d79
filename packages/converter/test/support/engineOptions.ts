/** The engine's options for tests and benches: damaged PDFs and failed OCR tolerated, English OCR, no progress. */
import * as Effect from "effect/Effect"
import type * as Engine from "../../src/internal/engine.js"

export const engineOptions = (more: Partial<Engine.EngineOptions> = {}): Engine.EngineOptions => ({
  ignorePdfErrors: true,
  ignoreOcrErrors: true,
  filename: undefined,
  password: undefined,
  ocrLanguages: ["eng"],
  ocrDataPath: undefined,
  onProgress: () => Effect.void,
  ...more
})
