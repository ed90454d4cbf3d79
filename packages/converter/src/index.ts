export * as Converter from "./Converter.js"
