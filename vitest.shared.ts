import type { ViteUserConfig } from "vitest/config"

/** Settings every project of the workspace shares. */
const config: ViteUserConfig = {
  esbuild: { target: "es2022" },
  test: {
    include: ["test/**/*.test.ts"],
    // CI runs every project at once on two cores, next to converter tests that keep both busy.
    // A TestClock test costs real timer turns (the clock waits for fibers to suspend), and one
    // that takes 3 s on an idle machine passed 5 s there. A test that hangs still fails, at 20 s.
    testTimeout: 20_000,
    fakeTimers: { toFake: undefined },
    sequence: { concurrent: false }
  }
}

export default config
