import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as Crypto from "node:crypto"
import * as Addresses from "../src/internal/addresses.js"
import * as Auth from "../src/internal/auth.js"
import { contentDisposition, sanitizeFilename } from "../src/internal/disposition.js"
import * as Signing from "../src/internal/signing.js"

describe("signed URLs", () => {
  const signer = Signing.makeSigner(new TextEncoder().encode("0123456789abcdef0123456789abcdef"))
  const expires = 1_000
  const signature = signer.sign("download", "task-1", expires)

  it("a signature verifies until its expiry, then is expired", () => {
    assert.strictEqual(signer.verify("download", "task-1", "1000", signature, 999_999), "valid")
    assert.strictEqual(signer.verify("download", "task-1", "1000", signature, 1_000_000), "expired")
  })

  it("any change is invalid: id, purpose, expiry, signature, key", () => {
    assert.strictEqual(signer.verify("download", "task-2", "1000", signature, 0), "invalid")
    assert.strictEqual(signer.verify("file", "task-1", "1000", signature, 0), "invalid")
    assert.strictEqual(signer.verify("download", "task-1", "1001", signature, 0), "invalid")
    assert.strictEqual(signer.verify("download", "task-1", "99999999", signature, 0), "invalid")
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1)
    assert.strictEqual(signer.verify("download", "task-1", "1000", flipped, 0), "invalid")
    assert.strictEqual(signer.verify("download", "task-1", "1000", signature.slice(0, -2), 0), "invalid")
    assert.strictEqual(signer.verify("download", "task-1", "1000", `${signature}AA`, 0), "invalid")
    const other = Signing.makeSigner(Signing.randomKey())
    assert.strictEqual(other.verify("download", "task-1", "1000", signature, 0), "invalid")
  })

  it("only the canonical 43-character base64url form verifies", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    const last = alphabet.indexOf(signature[42]!)
    for (
      const variant of [
        `${signature.slice(0, 5)}.${signature.slice(5)}`,
        `${signature.slice(0, 5)}!${signature.slice(5)}`,
        `${signature.slice(0, 5)} ${signature.slice(5)}`,
        `${signature}=`,
        `${signature.slice(0, 42)}${alphabet[last ^ 1]}`,
        `${signature.slice(0, 42)}${alphabet[last ^ 3]}`,
        // A character outside Latin-1 whose low byte is the original one.
        `${signature.slice(0, 42)}${String.fromCharCode(0x100 + signature.charCodeAt(42))}`,
        Buffer.from(signature, "base64url").toString("base64")
      ]
    ) {
      assert.strictEqual(signer.verify("download", "task-1", "1000", variant, 0), "invalid", variant)
    }
  })

  it("missing or malformed parameters are invalid, never a throw", () => {
    for (
      const [expiresText, sig] of [
        [undefined, signature],
        ["1000", undefined],
        ["", signature],
        ["-5", signature],
        ["1e3", signature],
        ["1000", ""],
        ["1000", "%%%"],
        ["1".repeat(100), signature]
      ] as const
    ) {
      assert.strictEqual(signer.verify("download", "task-1", expiresText, sig, 0), "invalid")
    }
  })
})

describe("API keys", () => {
  const limiter = { rate: undefined, quota: undefined, concurrency: 3, concurrencyRetryAfterMs: 1000 }
  const ring = Auth.makeKeyRing([
    { id: "key#1", secret: Redacted.make("alpha-key"), limiter },
    { id: "beta", secret: Redacted.make("beta-key"), limiter: { ...limiter, concurrency: 9 } }
  ])
  const idOf = (authorization: string) => {
    const result = ring.authenticate(authorization)
    return result._tag === "Authenticated" ? [result.key.id, result.key.limiter.concurrency] : result._tag
  }

  it("accepts Bearer (any case) and the raw key, and tells keys apart, each with its limits", () => {
    assert.deepStrictEqual(idOf("Bearer alpha-key"), ["key#1", 3])
    assert.deepStrictEqual(idOf("bearer   beta-key "), ["beta", 9])
    assert.deepStrictEqual(idOf("BEARER alpha-key"), ["key#1", 3])
    assert.deepStrictEqual(idOf("beta-key"), ["beta", 9])
  })

  it("refuses missing, malformed and wrong credentials", () => {
    assert.strictEqual(ring.authenticate(undefined)._tag, "Missing")
    assert.strictEqual(ring.authenticate("")._tag, "Missing")
    assert.strictEqual(ring.authenticate("   ")._tag, "Missing")
    assert.strictEqual(ring.authenticate("Bearer")._tag, "Malformed")
    assert.strictEqual(ring.authenticate("Bearer ")._tag, "Malformed")
    assert.strictEqual(ring.authenticate("Basic YWxwaGEta2V5")._tag, "Malformed")
    assert.strictEqual(ring.authenticate("Bearer alpha-key extra")._tag, "Malformed")
    assert.strictEqual(ring.authenticate("Bearer alpha-kez")._tag, "Invalid")
    assert.strictEqual(ring.authenticate("Bearer alpha-key-longer")._tag, "Invalid")
    assert.strictEqual(ring.authenticate("alpha")._tag, "Invalid")
    assert.strictEqual(ring.authenticate(`Bearer ${"x".repeat(5000)}`)._tag, "Malformed")
  })

  it("compares fixed-length hashes: any length is compared without throwing, and every key is visited", () => {
    const hashes = ["a", "bb", "ccc"].map((k) => Crypto.createHash("sha256").update(k).digest())
    assert.strictEqual(Auth.matchIndex(hashes, "bb"), 1)
    assert.strictEqual(Auth.matchIndex(hashes, ""), -1)
    assert.strictEqual(Auth.matchIndex(hashes, "x".repeat(10_000)), -1)
  })

  it("parses PDF_TRANSFORM_SERVER_KEYS", () => {
    assert.deepStrictEqual(Auth.parseKeyList(" k1, ,k2,,k3 "), ["k1", "k2", "k3"])
    assert.isFalse(Auth.isUsableKey("with space"))
    assert.isTrue(Auth.isUsableKey("sk-123_ABC.def"))
  })
})

describe("addresses (SSRF)", () => {
  it("refuses every non-public address, IPv4 and IPv6 forms alike", () => {
    for (
      const address of [
        "127.0.0.1",
        "127.255.255.254",
        "0.0.0.0",
        "10.1.2.3",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "198.18.0.1",
        "224.0.0.1",
        "255.255.255.255",
        "::",
        "::1",
        "::ffff:127.0.0.1",
        "::ffff:7f00:1",
        "::ffff:a9fe:a9fe",
        "0:0:0:0:0:ffff:10.0.0.1",
        "::127.0.0.1",
        "fe80::1",
        "fe80::1%eth0",
        "fc00::1",
        "fd12:3456::1",
        "ff02::1",
        "64:ff9b::7f00:1",
        "2001:db8::1",
        "2002:7f00:1::1",
        "2001::1",
        "not-an-ip"
      ]
    ) {
      assert.isFalse(Addresses.isPublicAddress(address), address)
    }
  })

  it("accepts public addresses", () => {
    for (
      const address of [
        "8.8.8.8",
        "1.1.1.1",
        "93.184.216.34",
        "2606:4700::1111",
        "2a00:1450:4001::200e",
        "::ffff:8.8.8.8"
      ]
    ) {
      assert.isTrue(Addresses.isPublicAddress(address), address)
    }
  })

  const check = (url: string, answers: ReadonlyArray<{ address: string; family: number }>) =>
    Addresses.resolveTarget(url, { resolve: () => Promise.resolve(answers), timeoutMs: 1000 }).pipe(Effect.either)

  it.effect("checks after resolution: one private answer refuses the name", () =>
    Effect.gen(function*() {
      const mixed = yield* check("https://example.test/a.pdf", [
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.5", family: 4 }
      ])
      assert.isTrue(mixed._tag === "Left")
      const good = yield* check("https://example.test/a.pdf", [{ address: "93.184.216.34", family: 4 }])
      assert.isTrue(good._tag === "Right" && good.right.address === "93.184.216.34")
      for (
        const url of [
          "ftp://example.test/a.pdf",
          "https://user:pw@example.test/a.pdf",
          "http://[::1]/a.pdf",
          "http://0x7f.1/"
        ]
      ) {
        assert.isTrue((yield* check(url, [{ address: "93.184.216.34", family: 4 }]))._tag === "Left", url)
      }
      const unresolvable = yield* Addresses.resolveTarget("https://nowhere.test/", {
        resolve: () => Promise.reject(new Error("ENOTFOUND")),
        timeoutMs: 1000
      }).pipe(Effect.either)
      assert.isTrue(unresolvable._tag === "Left")
    }))

  it.effect("an allow-list of hosts: only those hosts (and a *. pattern's subdomains), each still checked", () =>
    Effect.gen(function*() {
      const allowHosts = ["files.example.test", "*.docs.example.test"]
      const reasons: Array<string> = []
      const target = (url: string, address: string) =>
        Effect.map(
          Addresses.resolveTarget(url, {
            resolve: () => Promise.resolve([{ address, family: 4 }]),
            timeoutMs: 1000,
            allowHosts
          }).pipe(Effect.either),
          (result) => {
            if (result._tag === "Left") reasons.push(result.left.reason)
            return result._tag
          }
        )
      assert.strictEqual(yield* target("https://files.example.test/a.pdf", "93.184.216.34"), "Right")
      assert.strictEqual(yield* target("https://FILES.example.test/a.pdf", "93.184.216.34"), "Right")
      assert.strictEqual(yield* target("https://a.b.docs.example.test/a.pdf", "93.184.216.34"), "Right")
      assert.strictEqual(yield* target("https://docs.example.test/a.pdf", "93.184.216.34"), "Left")
      assert.strictEqual(yield* target("https://evildocs.example.test/a.pdf", "93.184.216.34"), "Left")
      assert.strictEqual(yield* target("https://other.example.test/a.pdf", "93.184.216.34"), "Left")
      // An allowed host that resolves to a private address is refused all the same.
      assert.strictEqual(yield* target("https://files.example.test/a.pdf", "10.0.0.5"), "Left")
      assert.include(reasons[0], "is not one this server fetches from")
      assert.include(reasons[3], "not a public address")
    }))
})

describe("Content-Disposition", () => {
  it("sanitises names and encodes UTF-8 as RFC 6266 filename*", () => {
    assert.strictEqual(sanitizeFilename("../../etc/passwd", "document"), "_.._etc_passwd")
    assert.strictEqual(sanitizeFilename("  ..hidden ", "document"), "hidden")
    assert.strictEqual(sanitizeFilename("a\u0000b\r\nc", "document"), "a_b__c")
    assert.strictEqual(sanitizeFilename("CON", "document"), "document")
    assert.strictEqual(sanitizeFilename(undefined, "document"), "document")
    assert.strictEqual(sanitizeFilename("x".repeat(500), "d").length, 150)
    assert.strictEqual(
      contentDisposition("Résumé \"1\".md"),
      "attachment; filename=\"R_sum_ _1_.md\"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%221%22.md"
    )
  })
})
