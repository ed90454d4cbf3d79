/**
 * Remote `pdfURL` fetching without SSRF: http(s) to public unicast addresses only, connecting to the
 * address checked after resolution (a second DNS answer, as in rebinding, is never used).
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Dns from "node:dns"
import * as Http from "node:http"
import * as Https from "node:https"
import type * as Net from "node:net"
import { BlockList, isIP, isIPv4 } from "node:net"

/** The pdfURL is refused before any task is created (answered 400). */
export class UrlRefused extends Data.TaggedError("UrlRefused")<{ readonly reason: string }> {}

/** Fetching the pdfURL failed after the task was created (the task ends as failed). */
export class FetchFailed extends Data.TaggedError("FetchFailed")<{ readonly reason: string }> {}

// Everything that is not a public unicast IPv4 address (RFC 6890 special-purpose registry).
const blockedV4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.31.196.0", 24],
  ["192.52.193.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["192.175.48.0", 24],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4]
]

// Inside 2000::/3 (global unicast), the ranges that are not plain public hosts: protocol
// assignments incl. Teredo, documentation, 6to4 (embeds any IPv4), ORCHID, SRv6 SIDs.
const blockedV6: ReadonlyArray<readonly [string, number]> = [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
  ["5f00::", 16]
]

const v4List = new BlockList()
for (const [network, prefix] of blockedV4) v4List.addSubnet(network, prefix, "ipv4")
const v6GlobalUnicast = new BlockList()
v6GlobalUnicast.addSubnet("2000::", 3, "ipv6")
const v6List = new BlockList()
for (const [network, prefix] of blockedV6) v6List.addSubnet(network, prefix, "ipv6")

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail allowed), or undefined. */
export const ipv6Groups = (address: string): Array<number> | undefined => {
  let text = address.toLowerCase()
  const zone = text.indexOf("%")
  if (zone >= 0) text = text.slice(0, zone)
  const lastColon = text.lastIndexOf(":")
  if (lastColon < 0) return undefined
  const tail = text.slice(lastColon + 1)
  if (tail.includes(".")) {
    if (!isIPv4(tail)) return undefined
    const [a, b, c, d] = tail.split(".").map(Number) as [number, number, number, number]
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const head = halves[0] === "" ? [] : halves[0]!.split(":")
  const rest = halves.length === 2 && halves[1] !== "" ? halves[1]!.split(":") : []
  const missing = 8 - head.length - rest.length
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return undefined
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest]
  const out: Array<number> = []
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return undefined
    out.push(parseInt(group, 16))
  }
  return out
}

/** Whether an IP address (v4 or v6 text) is public unicast. */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address)
  if (family === 4) return !v4List.check(address, "ipv4")
  if (family !== 6) return false
  const groups = ipv6Groups(address)
  if (groups === undefined) return false
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number]
  // IPv4-mapped (::ffff:a.b.c.d): judged as the IPv4 address it maps to.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return isPublicAddress(`${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`)
  }
  const normalized = groups.map((group) => group.toString(16)).join(":")
  // Only global unicast (2000::/3): this excludes ::, ::1, IPv4-compatible, NAT64 (64:ff9b::/96),
  // unique-local (fc00::/7), link-local (fe80::/10), site-local and multicast.
  return v6GlobalUnicast.check(normalized, "ipv6") && !v6List.check(normalized, "ipv6")
}

/** A resolved, checked target: connect to `address`, speak to `url`'s host name. */
export interface ResolvedTarget {
  readonly url: URL
  readonly address: string
  readonly family: 4 | 6
}

export type Resolve = (
  hostname: string
) => Promise<ReadonlyArray<{ readonly address: string; readonly family: number }>>

export const systemResolve: Resolve = (hostname) => Dns.promises.lookup(hostname, { all: true, verbatim: true })

/** Whether `host` is one of `allowed` (`*.example.com` allowing its subdomains); every host when undefined. */
export const isAllowedHost = (host: string, allowed: ReadonlyArray<string> | undefined): boolean =>
  allowed === undefined ||
  allowed.some((pattern) =>
    pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern
  )

/** Checks a pdfURL: http(s), no credentials, an allowed host that resolves only to public addresses. */
export const resolveTarget = (
  pdfURL: string,
  options: {
    readonly resolve: Resolve
    readonly timeoutMs: number
    readonly allowHosts?: ReadonlyArray<string> | undefined
  }
): Effect.Effect<ResolvedTarget, UrlRefused> =>
  Effect.gen(function*() {
    const url = URL.canParse(pdfURL) ? new URL(pdfURL) : undefined
    if (url === undefined) return yield* new UrlRefused({ reason: "pdfURL is not an absolute URL" })
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return yield* new UrlRefused({ reason: "pdfURL must use http or https" })
    }
    if (url.username !== "" || url.password !== "") {
      return yield* new UrlRefused({ reason: "pdfURL must not carry credentials" })
    }
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname
    if (host === "") return yield* new UrlRefused({ reason: "pdfURL has no host" })
    if (!isAllowedHost(host.toLowerCase(), options.allowHosts)) {
      return yield* new UrlRefused({ reason: `pdfURL host ${host} is not one this server fetches from` })
    }
    const literal = isIP(host)
    const answers = literal !== 0
      ? [{ address: host, family: literal }]
      : yield* Effect.tryPromise({
        try: () => options.resolve(host),
        catch: () => new UrlRefused({ reason: `pdfURL host ${host} cannot be resolved` })
      }).pipe(
        Effect.timeoutFail({
          duration: options.timeoutMs,
          onTimeout: () => new UrlRefused({ reason: `pdfURL host ${host} did not resolve in time` })
        })
      )
    if (answers.length === 0) return yield* new UrlRefused({ reason: `pdfURL host ${host} cannot be resolved` })
    for (const answer of answers) {
      if (!isPublicAddress(answer.address)) {
        return yield* new UrlRefused({
          reason: `pdfURL host ${host} is not a public address (loopback, private, link-local and similar are refused)`
        })
      }
    }
    const first = answers[0]!
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 }
  })

/**
 * GETs a checked target at its checked address (TLS name and Host stay the URL's); redirects are not
 * followed: their target would need the same checks.
 */
export const fetchTarget = (
  target: ResolvedTarget,
  options: { readonly maxBytes: number; readonly timeoutMs: number }
): Effect.Effect<Uint8Array, FetchFailed> =>
  Effect.async<Uint8Array, FetchFailed>((resume, signal) => {
    const pinnedLookup = ((
      _hostname: string,
      lookupOptions: Dns.LookupOptions,
      callback: (...args: Array<unknown>) => void
    ) => {
      if (lookupOptions.all === true) callback(null, [{ address: target.address, family: target.family }])
      else callback(null, target.address, target.family)
    }) as unknown as Net.LookupFunction
    const get = target.url.protocol === "https:" ? Https.get : Http.get
    let settled = false
    const finish = (outcome: Effect.Effect<Uint8Array, FetchFailed>) => {
      if (settled) return
      settled = true
      resume(outcome)
    }
    const request = get(target.url, { lookup: pinnedLookup, signal, headers: { accept: "application/pdf" } }, (res) => {
      const status = res.statusCode ?? 0
      if (status !== 200) {
        res.resume()
        return finish(Effect.fail(new FetchFailed({ reason: `the pdfURL answered HTTP ${status}` })))
      }
      const declared = Number(res.headers["content-length"])
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        res.destroy()
        return finish(Effect.fail(new FetchFailed({ reason: `the PDF is larger than ${options.maxBytes} bytes` })))
      }
      const chunks: Array<Buffer> = []
      let size = 0
      res.on("data", (chunk: Buffer) => {
        size += chunk.length
        if (size > options.maxBytes) {
          res.destroy()
          finish(Effect.fail(new FetchFailed({ reason: `the PDF is larger than ${options.maxBytes} bytes` })))
          return
        }
        chunks.push(chunk)
      })
      res.on("end", () => finish(Effect.succeed(new Uint8Array(Buffer.concat(chunks)))))
      res.on("error", (error) =>
        finish(Effect.fail(new FetchFailed({ reason: `reading the pdfURL failed: ${error.message}` }))))
    })
    request.on("error", (error) =>
      finish(Effect.fail(new FetchFailed({ reason: `fetching the pdfURL failed: ${error.message}` }))))
  }).pipe(
    Effect.timeoutFail({
      duration: options.timeoutMs,
      onTimeout: () =>
        new FetchFailed({ reason: `fetching the pdfURL took longer than ${options.timeoutMs} ms` })
    })
  )
