/** Pool use that replaces an item whose use timed out (a worker stuck in synchronous code). */
import * as Effect from "effect/Effect"
import type * as Pool from "effect/Pool"

/**
 * Runs `use` on an item of the pool. When the use fails with a time-out, the item is invalidated:
 * the pool closes it (a worker thread is told to stop, then terminated) and makes a fresh one,
 * so a document that traps the PDF engine in a loop costs one worker restart, not a worker for good.
 */
export const useReplacingOnTimeout = <W, WE, A, E, R>(
  pool: Pool.Pool<W, WE>,
  use: (item: W) => Effect.Effect<A, E, R>,
  isTimeout: (error: E) => boolean
): Effect.Effect<A, E | WE, R> =>
  Effect.scoped(
    Effect.flatMap(pool.get, (item) =>
      use(item).pipe(
        Effect.tapError((error) => isTimeout(error) ? pool.invalidate(item) : Effect.void)
      ))
  )
