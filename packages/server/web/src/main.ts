/**
 * The page: signing in, the views (`#convert`, `#result/<id>`, `#operator`), and what a drop, a
 * choice of files or a list of addresses starts.
 */
import * as Api from "./api.js"
import type { App } from "./app.js"
import * as Documents from "./documents.js"
import type { Document, Task } from "./documents.js"
import { byId, h } from "./dom.js"
import * as Operator from "./operator.js"
import * as Poller from "./poller.js"
import * as Result from "./result.js"
import * as Submitter from "./submitter.js"
import * as Upload from "./upload.js"
import * as View from "./view.js"

const keyStorage = "pdf-transform.key"

const app: App = {
  key: sessionStorage.getItem(keyStorage) ?? undefined,
  settings: undefined,
  documents: Documents.load(),
  changed: () => {
    Documents.save(app.documents)
    showList()
  },
  refused: (message) => signOut(`The server no longer accepts this key: ${message}`)
}

const announce = (text: string) => {
  byId("status").textContent = text
}

const mine = (): Array<Document> => app.documents.filter((document) => document.owner === app.settings?.key)

const submitter = Submitter.make(app, (document, task) => poller.watch(task))
const poller = Poller.make(app, (task) => {
  submitter.slotFreed()
  const document = app.documents.find((document) => document.tasks.includes(task))
  if (document !== undefined) {
    announce(`${document.name}: ${task.format === "markdown" ? "Markdown" : "EPUB"} ${task.phase}`)
  }
})

const actions: View.Actions = {
  download: (document, task) => void download(document, task),
  resubmit: (_document, task) => {
    for (const field of ["sessionID", "error", "submittedAt", "endedAt", "retryAt"] as const) delete task[field]
    Object.assign(task, { phase: "queued", progress: 0, rateLimited: 0 })
    app.changed()
    submitter.wake()
  },
  remove: (document) => {
    app.documents.splice(app.documents.indexOf(document), 1)
    app.changed()
  }
}

function showList() {
  const documents = mine()
  byId("empty").hidden = documents.length > 0
  View.render(byId("documents"), documents, actions)
}

const download = async (document: Document, task: Task) => {
  if (app.key === undefined || task.sessionID === undefined) return
  try {
    const url = await Api.downloadUrl(app.key, task.format, task.sessionID)
    const name = `${document.name.replace(/\.pdf$/i, "")}${task.format === "markdown" ? ".md" : ".epub"}`
    const link = h("a", { href: url, download: name, hidden: true })
    window.document.body.append(link)
    link.click()
    link.remove()
  } catch (error) {
    announce(`${document.name} could not be downloaded: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const chosenFormats = (): Array<Task["format"]> => [
  ...(byId<HTMLInputElement>("to-markdown").checked ? ["markdown" as const] : []),
  ...(byId<HTMLInputElement>("to-epub").checked ? ["epub" as const] : [])
]

const newDocument = (name: string, size: number | undefined, formats: ReadonlyArray<Task["format"]>): Document => ({
  id: Documents.newId(),
  name,
  owner: app.settings!.key,
  ...(size === undefined ? {} : { size }),
  addedAt: Date.now(),
  upload: { phase: size === undefined ? "done" : "uploading", progress: 0 },
  tasks: formats.map((format) => ({ format, phase: "queued", progress: 0, rateLimited: 0 }))
})

/** Files are uploaded one after the other, each submitted as soon as it is up. */
let uploads: Promise<void> = Promise.resolve()

const addFiles = (files: ReadonlyArray<File>) => {
  const error = byId("convert-error")
  const formats = chosenFormats()
  if (formats.length === 0) return void (error.textContent = "Choose Markdown, EPUB or both first.")
  const max = app.settings?.maxUploadBytes ?? Number.POSITIVE_INFINITY
  const refused = files.filter((file) => !/\.pdf$/i.test(file.name) && file.type !== "application/pdf")
  const tooLarge = files.filter((file) => file.size > max)
  error.textContent = [
    ...refused.map((file) => `${file.name} is not a PDF.`),
    ...tooLarge.map((file) => `${file.name} is larger than this server takes (${Math.floor(max / 1048576)} MiB).`)
  ].join(" ")
  for (const file of files.filter((file) => !refused.includes(file) && !tooLarge.includes(file))) {
    const document = newDocument(file.name, file.size, formats)
    app.documents.push(document)
    app.changed()
    uploads = uploads.then(() => uploadOne(document, file))
  }
}

const uploadOne = async (document: Document, file: File) => {
  const key = app.key
  if (key === undefined) return
  try {
    const uploaded = await Upload.upload(key, file, (fraction) => {
      document.upload.progress = fraction
      showList()
    })
    Object.assign(document, { pdfURL: uploaded.pdfURL, fileId: uploaded.fileId })
    document.upload = { phase: "done", progress: 1 }
    app.changed()
    submitter.wake()
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    document.upload = { phase: "failed", progress: document.upload.progress, error: reason }
    for (const task of document.tasks) {
      Object.assign(task, { phase: "failed", error: "never submitted: the upload failed" })
    }
    app.changed()
  }
}

const addAddresses = (text: string) => {
  const formats = chosenFormats()
  if (formats.length === 0) return void (byId("convert-error").textContent = "Choose Markdown, EPUB or both first.")
  for (const url of text.split(/\s+/).filter((line) => line !== "")) {
    const document = newDocument(url.split("/").pop() || url, undefined, formats)
    document.pdfURL = url
    app.documents.push(document)
  }
  app.changed()
  submitter.wake()
}

const route = () => {
  const signedIn = app.settings !== undefined
  const hash = location.hash
  const result = /^#result\/(.+)$/.exec(hash)
  const shown = !signedIn ? "sign-in" : result !== null ? "result" : hash === "#operator" ? "operator" : "convert"
  for (const id of ["sign-in", "convert", "result", "operator"]) byId(id).hidden = id !== shown
  for (const id of ["convert", "operator"]) {
    const link = byId(`nav-${id}`)
    if (id === shown) link.setAttribute("aria-current", "page")
    else link.removeAttribute("aria-current")
  }
  if (shown === "operator") Operator.start(app)
  else Operator.stop()
  if (shown === "result") {
    const document = mine().find((document) => document.id === result![1])
    if (document === undefined) return void (location.hash = "#convert")
    Result.show(app, document)
  }
  if (shown === "sign-in") byId("api-key").focus()
}

function signOut(message: string) {
  sessionStorage.removeItem(keyStorage)
  app.key = undefined
  app.settings = undefined
  poller.stopAll()
  Operator.stop()
  byId("nav").hidden = true
  byId("who").hidden = true
  byId("sign-in-error").textContent = message
  route()
}

const signIn = async (key: string) => {
  const answer = await Api.settings(key)
  if (answer._tag === "Unauthenticated") return signOut(`This key is not accepted by the server: ${answer.message}.`)
  if (answer._tag === "Failed") {
    byId("sign-in-error").textContent = `Could not sign in: ${answer.message}.`
    return route()
  }
  sessionStorage.setItem(keyStorage, key)
  app.key = key
  app.settings = answer.value
  byId("sign-in-error").textContent = ""
  byId("who-key").textContent = `Signed in with ${answer.value.key}`
  byId("nav").hidden = false
  byId("who").hidden = false
  byId("urls-form").hidden = !answer.value.remoteFetch
  route()
  showList()
  for (const document of mine()) {
    for (const task of document.tasks) if (task.phase === "processing") poller.watch(task)
  }
  submitter.wake()
}

const setUp = () => {
  Result.setUpTabs()
  window.addEventListener("hashchange", route)
  byId("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault()
    const key = byId<HTMLInputElement>("api-key").value.trim()
    if (key !== "") void signIn(key)
  })
  byId("sign-out").addEventListener("click", () => signOut(""))
  const input = byId<HTMLInputElement>("files")
  input.addEventListener("change", () => {
    addFiles([...(input.files ?? [])])
    input.value = ""
  })
  const drop = byId("drop")
  drop.addEventListener("dragover", (event) => {
    event.preventDefault()
    drop.classList.add("over")
  })
  drop.addEventListener("dragleave", () => drop.classList.remove("over"))
  drop.addEventListener("drop", (event) => {
    event.preventDefault()
    drop.classList.remove("over")
    addFiles([...(event.dataTransfer?.files ?? [])])
  })
  byId("urls-form").addEventListener("submit", (event) => {
    event.preventDefault()
    const area = byId<HTMLTextAreaElement>("urls")
    addAddresses(area.value)
    area.value = ""
  })
  // Times and countdowns move on by themselves.
  setInterval(() => {
    if (!byId("convert").hidden) showList()
  }, 1000)
  if (app.key === undefined) route()
  else void signIn(app.key)
}

setUp()
