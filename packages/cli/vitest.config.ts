import { defineProject, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

export default mergeConfig(
  shared,
  defineProject({ test: { globalSetup: ["test/support/globalSetup.ts"] } })
)
