/**
 * PDFium's WebAssembly, compiled once per process (the pool's thread hands it to its workers), apart
 * from the module's JavaScript (`pdfium.ts`), which only converting threads load.
 */
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)

let compiled: WebAssembly.Module | undefined

/** The global `WebAssembly` object, which Node's type declarations describe only as types. */
interface WasmApi {
  readonly Module: new(bytes: Uint8Array) => WebAssembly.Module
  readonly Instance: new(module: WebAssembly.Module, imports: object) => { readonly exports: object }
  readonly compile: (bytes: Uint8Array) => Promise<WebAssembly.Module>
}
export const wasm: WasmApi = Reflect.get(globalThis, "WebAssembly")

const wasmBytes = () => readFileSync(require.resolve("@embedpdf/pdfium/pdfium.wasm"))

/** The compiled module, compiled here (synchronously) if no thread handed one over. */
export const compiledModule = (): WebAssembly.Module => compiled ??= new wasm.Module(wasmBytes())

/** The compiled module for a pool to hand to its workers (compiled off the calling thread), used here too. */
export const compileForPool: Effect.Effect<WebAssembly.Module> = Effect.suspend(() =>
  compiled === undefined
    ? Effect.map(Effect.promise(() => wasm.compile(wasmBytes())), (module) => compiled ??= module)
    : Effect.succeed(compiled)
)

/** Uses a module compiled by another thread of the process (a worker's, from its pool). */
export const useCompiledModule = (module: unknown): void => {
  if (module instanceof wasm.Module) compiled ??= module
}
