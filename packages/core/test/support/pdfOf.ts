/** A PDF-headed file whose every 4 KiB block differs, so a part stored at the wrong place shows. */
export const pdfOf = (size: number): Uint8Array => {
  const bytes = new Uint8Array(size)
  bytes.set(new TextEncoder().encode("%PDF-1.7\n").subarray(0, size))
  for (let offset = 4096; offset < size; offset += 4096) {
    bytes.set(new TextEncoder().encode(`block ${offset}`).subarray(0, size - offset), offset)
  }
  return bytes
}
