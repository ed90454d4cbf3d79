/**
 * A minimal HTTP/1.1 keep-alive connection for the load generator: one request at a time, the
 * request written as one string, the answer parsed by `Content-Length`. The generator shares the
 * machine with the server; Node's `http.Agent` + `IncomingMessage` cost about 0.15 ms of CPU per
 * request and lag the generator's own event loop, which then shows up in every latency it measures.
 * This costs a fraction of that. It understands only what the reference server sends (no chunked
 * bodies, no 1xx) and fails loudly on anything else.
 */
import * as Net from "node:net"

export interface Answer {
  readonly status: number
  readonly body: string
}

const headerEnd = Buffer.from("\r\n\r\n")

export class Connection {
  private socket: Net.Socket | undefined
  private buffer: Buffer = Buffer.alloc(0)
  private pending:
    | { readonly resolve: (answer: Answer) => void; readonly reject: (error: Error) => void }
    | undefined

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly headers: string
  ) {}

  request(method: string, path: string, body?: string | Uint8Array, contentType?: string): Promise<Answer> {
    if (this.pending !== undefined) return Promise.reject(new Error("one request at a time"))
    const socket = this.socket ?? this.connect()
    const length = body === undefined ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.byteLength
    const head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n${this.headers}` +
      (body === undefined
        ? ""
        : `content-type: ${contentType ?? "application/json"}\r\ncontent-length: ${length}\r\n`) +
      "\r\n"
    return new Promise<Answer>((resolve, reject) => {
      this.pending = { resolve, reject }
      if (body === undefined || typeof body === "string") socket.write(head + (body ?? ""))
      else {
        socket.write(head)
        socket.write(body)
      }
    })
  }

  close(): void {
    this.socket?.destroy()
    this.socket = undefined
  }

  private connect(): Net.Socket {
    const socket = Net.connect({ host: this.host, port: this.port, noDelay: true })
    this.socket = socket
    this.buffer = Buffer.alloc(0)
    socket.on("data", (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
      this.parse()
    })
    const lost = (error: Error) => {
      if (this.socket === socket) this.socket = undefined
      const pending = this.pending
      this.pending = undefined
      pending?.reject(error)
    }
    socket.on("error", lost)
    socket.on("close", () => lost(Object.assign(new Error("connection closed"), { code: "ECONNCLOSED" })))
    return socket
  }

  private parse(): void {
    const end = this.buffer.indexOf(headerEnd)
    if (end === -1) return
    const head = this.buffer.subarray(0, end).toString("latin1")
    const lines = head.split("\r\n")
    const status = Number(lines[0]!.split(" ")[1])
    let length: number | undefined
    let close = false
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!
      const colon = line.indexOf(":")
      const name = line.slice(0, colon).toLowerCase()
      const value = line.slice(colon + 1).trim()
      if (name === "content-length") length = Number(value)
      else if (name === "connection" && value.toLowerCase() === "close") close = true
      else if (name === "transfer-encoding") {
        this.fail(new Error(`unexpected transfer-encoding ${value}`))
        return
      }
    }
    if (length === undefined) {
      this.fail(new Error(`HTTP ${status} without content-length`))
      return
    }
    const total = end + headerEnd.length + length
    if (this.buffer.length < total) return
    const body = this.buffer.subarray(end + headerEnd.length, total).toString("utf8")
    this.buffer = this.buffer.subarray(total)
    const pending = this.pending
    this.pending = undefined
    if (close) this.close()
    pending?.resolve({ status, body })
  }

  private fail(error: Error): void {
    const pending = this.pending
    this.pending = undefined
    this.close()
    pending?.reject(error)
  }
}
