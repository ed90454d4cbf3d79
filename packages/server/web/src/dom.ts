/** Building the page with DOM calls only: text is always a text node, never parsed as HTML. */

type Child = Node | string | null | undefined | false
type Props = Record<string, string | boolean | EventListener | undefined>

/** An element with attributes (`on...` for listeners, `true` for a bare attribute) and children. */
export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: ReadonlyArray<Child>
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue
    if (typeof value === "function") element.addEventListener(name.slice(2), value)
    else element.setAttribute(name, value === true ? "" : value)
  }
  element.append(
    ...children.filter((child): child is Node | string => child !== null && child !== undefined && child !== false)
  )
  return element
}

export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const element = document.getElementById(id)
  if (element === null) throw new Error(`the page has no #${id}`)
  return element as T
}

export const fill = (element: Element, ...children: ReadonlyArray<Node | string>): void => {
  element.replaceChildren(...children)
}

/** A size in bytes as people read it. */
export const bytes = (n: number): string =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} KiB` : `${(n / (1024 * 1024)).toFixed(1)} MiB`

/** A duration in milliseconds as `1 min 05 s` or `4.2 s`. */
export const duration = (ms: number): string => {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const seconds = Math.round(ms / 1000)
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`
}
