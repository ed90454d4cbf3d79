import type { ViteUserConfig } from "vitest/config"

/** Settings every project of the workspace shares. */
const config: ViteUserConfig = {
  esbuild: { target: "es2022" },
  test: {
    include: ["test/**/*.test.ts"],
    fakeTimers: { toFake: undefined },
    sequence: { concurrent: false }
  }
}

export default config
