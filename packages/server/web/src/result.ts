/**
 * One document's result: the Markdown rendered and as source, beside the PDF in the browser's own
 * viewer (the uploaded file, fetched with the key, shown from a `blob:` URL).
 */
import * as Api from "./api.js"
import type { App } from "./app.js"
import type { Document } from "./documents.js"
import { byId, fill, h } from "./dom.js"
import * as Markdown from "./markdown.js"

let previewUrl: string | undefined

const showPreview = async (app: App, document: Document) => {
  const preview = byId("preview")
  if (previewUrl !== undefined) URL.revokeObjectURL(previewUrl)
  previewUrl = undefined
  if (document.fileId === undefined || app.key === undefined) {
    fill(preview, h("p", { class: "hint" }, `No preview: the PDF was given by its address, ${document.pdfURL ?? ""}`))
    return
  }
  fill(preview, h("p", { class: "hint" }, "Loading the PDF..."))
  try {
    const pdf = await Api.uploadedPdf(app.key, document.fileId)
    previewUrl = URL.createObjectURL(new Blob([pdf], { type: "application/pdf" }))
    fill(preview, h("iframe", { src: previewUrl, title: `The PDF ${document.name}`, class: "pdf" }))
  } catch (error) {
    fill(preview, h("p", { class: "error" }, `No preview: ${error instanceof Error ? error.message : String(error)}`))
  }
}

const showMarkdown = async (app: App, document: Document) => {
  const rendered = byId("rendered")
  const source = byId("source")
  const task = document.tasks.find((task) => task.format === "markdown" && task.phase === "completed")
  if (task?.sessionID === undefined || app.key === undefined) {
    fill(rendered, h("p", { class: "hint" }, "The Markdown is not ready."))
    fill(source)
    return
  }
  fill(rendered, h("p", { class: "hint" }, "Loading the Markdown..."))
  try {
    const text = await (await Api.output(await Api.downloadUrl(app.key, "markdown", task.sessionID))).text()
    Markdown.render(rendered, text)
    source.textContent = text
  } catch (error) {
    fill(
      rendered,
      h(
        "p",
        { class: "error" },
        `The Markdown could not be read: ${error instanceof Error ? error.message : String(error)}`
      )
    )
  }
}

/** Shows the result of `document`. */
export const show = (app: App, document: Document): void => {
  byId("result-title").textContent = document.name
  void showPreview(app, document)
  void showMarkdown(app, document)
}

/** The two tabs: rendered and source, with the arrow keys moving between them. */
export const setUpTabs = (): void => {
  const tabs = [byId("tab-rendered"), byId("tab-source")]
  const select = (chosen: HTMLElement) => {
    for (const tab of tabs) {
      const selected = tab === chosen
      tab.setAttribute("aria-selected", String(selected))
      tab.tabIndex = selected ? 0 : -1
      byId(tab.getAttribute("aria-controls")!).hidden = !selected
    }
  }
  for (const [i, tab] of tabs.entries()) {
    tab.addEventListener("click", () => select(tab))
    tab.addEventListener("keydown", (event) => {
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return
      const other = tabs[(i + 1) % tabs.length]!
      select(other)
      other.focus()
    })
  }
}
