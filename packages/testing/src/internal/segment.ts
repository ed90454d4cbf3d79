/** A percent-encoded path segment decoded, or `undefined` when it is not valid percent-encoding (a 404, never a crash). */
export const decodeSegment = (segment: string | undefined): string | undefined => {
  if (segment === undefined) return undefined
  try {
    return decodeURIComponent(segment)
  } catch {
    // A malformed escape (`%E0`) names nothing the fake holds.
    return undefined
  }
}
