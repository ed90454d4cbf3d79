/**
 * `docs/contract.md` describes what the server serves: its tables of endpoints, request fields and
 * task statuses must say what the OpenAPI document at /v1/openapi.json says.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"
import * as Server from "../src/Server.js"

const page = Fs.readFileSync(fileURLToPath(new URL("../../../docs/contract.md", import.meta.url)), "utf8")

/** The rows of the Markdown table right after the `<!-- name: ... -->` marker, as cell arrays. */
const table = (name: string): ReadonlyArray<ReadonlyArray<string>> => {
  const start = page.indexOf(`<!-- ${name}:`)
  expect(start, `docs/contract.md has no table marked "${name}"`).toBeGreaterThanOrEqual(0)
  const lines = page.slice(start).split("\n").slice(1)
  const rows = lines.slice(0, lines.findIndex((line) => !line.startsWith("|")))
  return rows.slice(2).map((row) => row.split("|").slice(1, -1).map((cell) => cell.trim()))
}

interface Schema {
  readonly $ref?: string
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly anyOf?: ReadonlyArray<Schema>
  readonly required?: ReadonlyArray<string>
  readonly properties?: Readonly<Record<string, Schema>>
}

interface Operation {
  readonly security?: ReadonlyArray<Readonly<Record<string, unknown>>>
  readonly responses: Readonly<Record<string, unknown>>
}

const document = Server.openApi as {
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>
  readonly components: { readonly schemas: Readonly<Record<string, Schema>> }
}
const schemas = document.components.schemas

/** The JSON type a schema describes, through `$ref`s and unions of one type. */
const typeOf = (schema: Schema | undefined): string | undefined => {
  if (schema?.$ref !== undefined) return typeOf(schemas[schema.$ref.replace("#/components/schemas/", "")])
  if (schema?.type !== undefined) return schema.type
  const types = new Set(schema?.anyOf?.map(typeOf))
  return types.size === 1 ? [...types][0] : undefined
}

describe("docs/contract.md", () => {
  it("lists every operation of the OpenAPI document, with its credential and its answers", () => {
    const documented = table("endpoints").map(([method, path, credential, answers]) =>
      `${method} ${path} ${credential} ${answers}`
    )
    const served = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => {
        // An operation that allows no credential at all (`{}`) is reached by a signed URL.
        const credential = operation.security?.some((s) => Object.keys(s).length === 0) === true ?
          "signature" :
          "bearer"
        return `${method.toUpperCase()} ${path} ${credential} ${Object.keys(operation.responses).join(", ")}`
      })
    )
    expect([...documented].sort()).toEqual([...served].sort())
  })

  it("describes the conversion request field by field", () => {
    const request = schemas["ConversionRequest"]!
    const documented = table("request").map(([field, type, required]) => `${field} ${type} ${required}`)
    const served = Object.entries(request.properties ?? {}).map(([field, schema]) =>
      `${field} ${typeOf(schema)} ${request.required?.includes(field) === true ? "yes" : "no"}`
    )
    expect([...documented].sort()).toEqual([...served].sort())
  })

  it("describes the three task statuses", () => {
    const documented = table("statuses").map(([state, success, fields]) => `${state} ${success} ${fields}`)
    const served = ["ProcessingStatus", "CompletedStatus", "FailedStatus"].map((name) => {
      const schema = schemas[name]!
      const properties = schema.properties ?? {}
      const others = Object.keys(properties).filter((key) => key !== "state" && key !== "success").map((key) => {
        const nested = Object.keys(properties[key]?.properties ?? {})
        const shown = nested.length > 0 ? nested.map((n) => `${key}.${n}`).join(", ") : key
        return schema.required?.includes(key) === true ? shown : `${shown} (optional)`
      })
      return `${properties["state"]?.enum?.[0]} ${properties["success"]?.enum?.[0]} ${others.join(", ")}`
    })
    expect([...documented].sort()).toEqual([...served].sort())
  })
})
