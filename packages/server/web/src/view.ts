/**
 * The list of this browser's documents. A row is built again only when what it shows changes, and
 * the control that had the focus gets it back, so polling never pulls the keyboard away.
 */
import type { Document, Task } from "./documents.js"
import { bytes, duration, h } from "./dom.js"

export interface Actions {
  readonly download: (document: Document, task: Task) => void
  readonly resubmit: (document: Document, task: Task) => void
  readonly remove: (document: Document) => void
}

const formatNames = { markdown: "Markdown", epub: "EPUB" } as const
const extensions = { markdown: ".md", epub: ".epub" } as const

const stateText = (document: Document, task: Task, now: number): string => {
  switch (task.phase) {
    case "queued":
      return document.upload.phase === "uploading" ? "Waiting for the upload" : "Waiting to be submitted"
    case "submitting":
      return "Submitting"
    case "rate-limited":
      return `Rate limited (${task.error ?? "429"}): submitting again in ${
        Math.max(0, Math.ceil(((task.retryAt ?? now) - now) / 1000))
      } s`
    case "processing":
      return `Converting, ${task.progress}%`
    case "completed":
      return "Completed"
    case "failed":
      return `Failed: ${task.error ?? "no details"}`
    case "unknown":
      return `Unknown: ${task.error ?? "no answer came"}`
    case "gone":
      return `Gone: ${task.error ?? "the server no longer knows this task"}`
  }
}

const elapsed = (task: Task, now: number): string =>
  task.submittedAt === undefined ? "" : duration((task.endedAt ?? now) - task.submittedAt)

const taskRow = (document: Document, task: Task, actions: Actions, now: number): HTMLLIElement => {
  const name = formatNames[task.format]
  const focusKey = (action: string) => `${document.id}:${task.format}:${action}`
  const buttons: Array<HTMLElement> = []
  if (task.phase === "completed") {
    if (task.format === "markdown") {
      buttons.push(h("a", { href: `#result/${document.id}`, class: "button", "data-focus": focusKey("view") }, "View"))
    }
    buttons.push(h("button", {
      type: "button",
      "data-focus": focusKey("download"),
      onclick: () => actions.download(document, task)
    }, `Download ${extensions[task.format]}`))
  }
  if ((task.phase === "failed" || task.phase === "unknown" || task.phase === "gone") && document.pdfURL !== undefined) {
    buttons.push(h("button", {
      type: "button",
      "data-focus": focusKey("resubmit"),
      title: task.phase === "unknown" ? "The first submit may have made a task: this may make a second one" : undefined,
      onclick: () => actions.resubmit(document, task)
    }, "Submit again"))
  }
  const running = task.phase === "processing"
  return h(
    "li",
    { class: "task", "data-format": task.format, "data-phase": task.phase },
    h("span", { class: "format" }, name),
    h("span", { class: "state" }, stateText(document, task, now)),
    running ?
      h("progress", { max: "100", value: String(task.progress), "aria-label": `${name} of ${document.name}` }) :
      null,
    h("span", { class: "time" }, elapsed(task, now)),
    task.rateLimited > 0 ?
      h("span", { class: "limited" }, `429s ridden out: ${task.rateLimited}`) :
      null,
    buttons.length > 0 ? h("span", { class: "actions" }, ...buttons) : null
  )
}

const uploadLine = (document: Document): HTMLElement | null => {
  const { upload } = document
  if (upload.phase === "done") return null
  if (upload.phase === "failed") return h("p", { class: "error" }, `Upload failed: ${upload.error ?? "no details"}`)
  const percent = Math.floor(upload.progress * 100)
  return h(
    "p",
    { class: "upload" },
    `Uploading, ${percent}% `,
    h("progress", { max: "100", value: String(percent), "aria-label": `Upload of ${document.name}` })
  )
}

const documentRow = (document: Document, actions: Actions, now: number): HTMLLIElement =>
  h(
    "li",
    { class: "document", "data-id": document.id },
    h(
      "div",
      { class: "document-head" },
      h("h4", { class: "name" }, document.name),
      h("span", { class: "meta" }, document.size === undefined ? "address" : bytes(document.size)),
      h("button", {
        type: "button",
        class: "quiet",
        "data-focus": `${document.id}:remove`,
        "aria-label": `Remove ${document.name} from the list`,
        onclick: () => actions.remove(document)
      }, "Remove")
    ),
    uploadLine(document),
    h("ul", { class: "tasks" }, ...document.tasks.map((task) => taskRow(document, task, actions, now)))
  )

/** What a row shows, to tell whether it must be built again. */
const signature = (row: HTMLElement): string => row.textContent ?? ""

/** Shows `documents` in `list`, newest first, keeping rows (and the focus) that did not change. */
export const render = (list: HTMLElement, documents: ReadonlyArray<Document>, actions: Actions): void => {
  const now = Date.now()
  const focused = (document.activeElement as HTMLElement | null)?.dataset["focus"]
  const existing = new Map([...list.children].map((row) => [(row as HTMLElement).dataset["id"], row as HTMLElement]))
  const rows = [...documents].reverse().map((document) => {
    const fresh = documentRow(document, actions, now)
    const old = existing.get(document.id)
    return old !== undefined && signature(old) === signature(fresh) ? old : fresh
  })
  if (rows.length !== list.children.length || rows.some((row, i) => list.children[i] !== row)) {
    list.replaceChildren(...rows)
  }
  if (focused !== undefined && (document.activeElement === null || document.activeElement === document.body)) {
    list.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focused)}"]`)?.focus()
  }
}
