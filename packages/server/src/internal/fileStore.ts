/**
 * Uploaded PDFs by id: whole files (`POST /v1/files`, or a finished chunked upload) and chunked
 * uploads still receiving parts. An upload reserves its declared size when it starts, so one that
 * was accepted can always finish; live entries are never dropped to make room: a full store refuses.
 */
import { ExpiringStore } from "./expiringStore.js"

export interface StoredFile {
  readonly _tag: "File"
  readonly id: string
  /** The key identity that uploaded it; other keys see it as unknown. */
  readonly owner: string
  readonly bytes: Uint8Array
  readonly createdAt: number
  readonly expiresAt: number
}

export interface PendingUpload {
  readonly _tag: "Upload"
  readonly id: string
  readonly owner: string
  readonly size: number
  readonly partSize: number
  readonly totalParts: number
  /**
   * The whole file, written part by part at each part's offset. Zero-filled memory is only
   * committed where parts are written, so an upload costs what it has received.
   */
  readonly bytes: Uint8Array
  /** Part numbers (1-based) received whole. */
  readonly received: Set<number>
  readonly createdAt: number
  readonly expiresAt: number
}

export type FileEntry = StoredFile | PendingUpload

export class FileStore extends ExpiringStore<FileEntry> {
  protected sizeOf(entry: FileEntry): number {
    return entry.bytes.byteLength
  }

  get(id: string, now: number): FileEntry | undefined {
    return this.entry(id, now)
  }

  /** A whole file, not an upload still receiving parts. */
  file(id: string, now: number): StoredFile | undefined {
    const entry = this.entry(id, now)
    return entry?._tag === "File" ? entry : undefined
  }

  /** Whether `bytes` more fit, after dropping expired entries if they do not at first. */
  hasRoomFor(bytes: number, now: number): boolean {
    const fits = () => this.entries.size < this.limits.maxEntries && this.bytes + bytes <= this.limits.maxBytes
    if (!fits()) this.sweep(now)
    return fits()
  }

  /** Stores the entry, or answers false when the count or byte budget is used up by live entries. */
  insert(entry: FileEntry, now: number): boolean {
    if (!this.hasRoomFor(entry.bytes.byteLength, now)) return false
    this.add(entry)
    return true
  }

  /** Turns an upload whose parts are all there into a file kept until `expiresAt`; no byte is copied. */
  complete(upload: PendingUpload, expiresAt: number): StoredFile {
    const file: StoredFile = {
      _tag: "File",
      id: upload.id,
      owner: upload.owner,
      bytes: upload.bytes,
      createdAt: upload.createdAt,
      expiresAt
    }
    this.entries.set(file.id, file)
    return file
  }
}
