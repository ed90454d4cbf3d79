import effectPlugin from "@effect/eslint-plugin"
import js from "@eslint/js"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["**/build/**", "**/dist/**", "**/node_modules/**", "**/.tsbuildinfo/**", "**/.bench-out/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...effectPlugin.configs.dprint,
  {
    plugins: { "@effect": effectPlugin },
    rules: {
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }],
      "@typescript-eslint/array-type": ["error", { default: "generic", readonly: "generic" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-namespace": "off",
      "no-empty": ["error", { allowEmptyCatch: false }],
      // TypeScript checks names itself; the core rule knows no Node or DOM globals.
      "no-undef": "off",
      "require-yield": "off"
    }
  }
)
