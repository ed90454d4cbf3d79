/**
 * Markdown made from a PDF is untrusted: it is rendered by markdown-it with raw HTML off (a
 * `<script>` in the text is shown as text) and its own link check (no `javascript:` or `data:`
 * links), then passed through DOMPurify, the only HTML the page ever parses; what it keeps is
 * inserted as nodes.
 */
import DOMPurify from "dompurify"
import MarkdownIt from "markdown-it"

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false })

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("rel", "noopener noreferrer nofollow")
    node.setAttribute("target", "_blank")
  }
})

/** Shows `text` rendered into `element`. */
export const render = (element: HTMLElement, text: string): void => {
  const nodes = DOMPurify.sanitize(markdown.render(text), {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select"],
    FORBID_ATTR: ["style"]
  })
  element.replaceChildren(nodes)
}
