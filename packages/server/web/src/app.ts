/** What the page's parts share: the key, the documents, and how a change is saved and shown. */
import type * as WebApi from "../../src/WebApi.js"
import type { Document } from "./documents.js"

export interface App {
  key: string | undefined
  settings: WebApi.Settings | undefined
  readonly documents: Array<Document>
  readonly changed: () => void
  /** The server refused the key: back to the sign-in form with `message`. */
  readonly refused: (message: string) => void
}

export const sleep = (ms: number): Promise<void> => new Promise((resume) => setTimeout(resume, Math.max(0, ms)))

/** A delay scaled by a random factor from 0.8 to 1.2, so that timers started together drift apart. */
export const jittered = (ms: number): number => ms * (0.8 + Math.random() * 0.4)
