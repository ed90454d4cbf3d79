/**
 * Entries by id that expire, counted in bytes: the part the task store and the file store share.
 * Times are passed in (read from Effect's `Clock` by the callers), so this is plain synchronous code.
 */

/** Expired entries are looked for at most this often (a scan of every stored entry: 10,000 tasks by default). */
const sweepIntervalMs = 5_000

export interface StoreLimits {
  readonly maxEntries: number
  readonly maxBytes: number
}

export abstract class ExpiringStore<T extends { readonly id: string; readonly expiresAt: number }> {
  protected readonly entries = new Map<string, T>()
  protected bytes = 0
  private sweptAt = 0

  constructor(readonly limits: StoreLimits) {}

  /** The bytes an entry holds against `limits.maxBytes`. */
  protected abstract sizeOf(entry: T): number

  get size(): number {
    return this.entries.size
  }

  get storedBytes(): number {
    return this.bytes
  }

  /** The entry if it exists and has not expired (an expired one is dropped here). */
  protected entry(id: string, now: number): T | undefined {
    const entry = this.entries.get(id)
    if (entry === undefined) return undefined
    if (entry.expiresAt <= now) {
      this.remove(entry)
      return undefined
    }
    return entry
  }

  /** Drops expired entries at most once per `sweepIntervalMs`: entries nobody asks for again still go. */
  sweepIfDue(now: number): void {
    if (now - this.sweptAt < sweepIntervalMs) return
    this.sweep(now)
  }

  /** Drops every expired entry. */
  sweep(now: number): void {
    this.sweptAt = now
    for (const entry of this.entries.values()) {
      if (entry.expiresAt <= now) this.remove(entry)
    }
  }

  protected add(entry: T): void {
    this.entries.set(entry.id, entry)
    this.bytes += this.sizeOf(entry)
  }

  protected remove(entry: T): void {
    if (this.entries.delete(entry.id)) this.bytes -= this.sizeOf(entry)
  }
}
