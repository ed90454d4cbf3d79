/**
 * A zip archive as an EPUB's container (OCF) needs it: entries in the order given (`mimetype`
 * first), each stored or deflated by Node's zlib, with its CRC from zlib too (native code, where a
 * JavaScript zip library spends a book's time on its text and its figures' checksums).
 */
import * as Zlib from "node:zlib"

/** A file of the archive; `store`: written as it is (already compressed, or required so). */
export interface ZipEntry {
  readonly name: string
  readonly data: Uint8Array
  readonly store: boolean
  /** Its CRC-32 when the caller has it already (a figure's, found when it was deduplicated). */
  readonly crc?: number | undefined
}

const localHeader = 30
const centralHeader = 46
const endRecord = 22

/** A date as MS-DOS time and date words (UTC, so a build does not depend on the machine's zone). */
const dosDateTime = (date: Date): readonly [time: number, date: number] => {
  const year = Math.min(Math.max(date.getUTCFullYear(), 1980), 2107)
  return [
    (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate()
  ]
}

/** The archive of `entries`, each dated `modified`. */
export const zip = (entries: ReadonlyArray<ZipEntry>, modified: Date): Uint8Array => {
  const [time, date] = dosDateTime(modified)
  const files = entries.map((entry) => ({
    name: Buffer.from(entry.name, "utf8"),
    // Bit 11: the name is UTF-8 (a name longer in bytes than in code units is not ASCII).
    flags: Buffer.byteLength(entry.name, "utf8") > entry.name.length ? 0x800 : 0,
    method: entry.store ? 0 : 8,
    crc: entry.crc ?? Zlib.crc32(entry.data),
    size: entry.data.byteLength,
    body: entry.store ? entry.data : Zlib.deflateRawSync(entry.data, { level: 6 })
  }))
  const bodies = files.reduce((sum, file) => sum + localHeader + file.name.length + file.body.byteLength, 0)
  const directory = files.reduce((sum, file) => sum + centralHeader + file.name.length, 0)
  const out = new Uint8Array(bodies + directory + endRecord)
  const view = new DataView(out.buffer)
  // The fields both headers share, from `at` (version needed to the name's length).
  const common = (at: number, file: typeof files[number]) => {
    view.setUint16(at, 20, true)
    view.setUint16(at + 2, file.flags, true)
    view.setUint16(at + 4, file.method, true)
    view.setUint16(at + 6, time, true)
    view.setUint16(at + 8, date, true)
    view.setUint32(at + 10, file.crc, true)
    view.setUint32(at + 14, file.body.byteLength, true)
    view.setUint32(at + 18, file.size, true)
    view.setUint16(at + 22, file.name.length, true)
  }
  const offsets: Array<number> = []
  let at = 0
  for (const file of files) {
    offsets.push(at)
    view.setUint32(at, 0x04034B50, true)
    common(at + 4, file)
    out.set(file.name, at + localHeader)
    out.set(file.body, at + localHeader + file.name.length)
    at += localHeader + file.name.length + file.body.byteLength
  }
  files.forEach((file, i) => {
    view.setUint32(at, 0x02014B50, true)
    view.setUint16(at + 4, 20, true)
    common(at + 6, file)
    view.setUint32(at + 42, offsets[i]!, true)
    out.set(file.name, at + centralHeader)
    at += centralHeader + file.name.length
  })
  view.setUint32(at, 0x06054B50, true)
  view.setUint16(at + 8, files.length, true)
  view.setUint16(at + 10, files.length, true)
  view.setUint32(at + 12, directory, true)
  view.setUint32(at + 16, bodies, true)
  return out
}
