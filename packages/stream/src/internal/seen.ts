/** The job keys a batch has seen, a fixed size a job: part of each digest and its first job, in typed arrays. */
import { createHash } from "node:crypto"

export interface Seen {
  /** The index of the first job with `key`; `undefined`, and `index` recorded, when it is the first. */
  readonly firstOrAdd: (key: string, index: number) => number | undefined
  /** How many keys are held. */
  readonly size: () => number
}

const empty = -1

/** 104 bits of the key as two integers below 2^52. */
const fingerprint = (key: string): readonly [number, number] => {
  const hex = /^[0-9a-f]{26}/i.test(key) ? key : createHash("sha256").update(key).digest("hex")
  return [Number.parseInt(hex.slice(0, 13), 16), Number.parseInt(hex.slice(13, 26), 16)]
}

export const make = (initialCapacity = 1024): Seen => {
  let capacity = 1
  while (capacity < initialCapacity) capacity *= 2
  let high = new Float64Array(capacity).fill(empty)
  let low = new Float64Array(capacity)
  let first = new Uint32Array(capacity)
  let size = 0

  /** The slot of `h`/`l`, or the empty slot where it would go. */
  const slotOf = (h: number, l: number): number => {
    const mask = capacity - 1
    let slot = (h + l) % capacity
    while (high[slot] !== empty && (high[slot] !== h || low[slot] !== l)) slot = (slot + 1) & mask
    return slot
  }

  const grow = () => {
    const [oldHigh, oldLow, oldFirst] = [high, low, first]
    capacity *= 2
    high = new Float64Array(capacity).fill(empty)
    low = new Float64Array(capacity)
    first = new Uint32Array(capacity)
    for (let i = 0; i < oldHigh.length; i++) {
      if (oldHigh[i] === empty) continue
      const slot = slotOf(oldHigh[i]!, oldLow[i]!)
      high[slot] = oldHigh[i]!
      low[slot] = oldLow[i]!
      first[slot] = oldFirst[i]!
    }
  }

  const firstOrAdd = (key: string, index: number): number | undefined => {
    const [h, l] = fingerprint(key)
    const slot = slotOf(h, l)
    if (high[slot] !== empty) return first[slot]
    high[slot] = h
    low[slot] = l
    first[slot] = index
    if (++size > capacity * 0.75) grow()
    return undefined
  }

  return { firstOrAdd, size: () => size }
}
