/**
 * Signed, expiring URLs (downloads and uploaded files): HMAC-SHA256 over the purpose, the id and
 * the expiry, compared in constant time. A URL proves what it is for and until when.
 */
import * as Crypto from "node:crypto"

/** What a signature grants, signed with it: a file signature never opens a download. */
export type Purpose = "download" | "file" | "part"

export interface Signer {
  readonly sign: (purpose: Purpose, id: string, expiresAtSeconds: number) => string
  readonly verify: (
    purpose: Purpose,
    id: string,
    expires: string | undefined,
    signature: string | undefined,
    nowMs: number
  ) => Verification
}

export type Verification = "valid" | "invalid" | "expired"

const digest = (key: Uint8Array, purpose: Purpose, id: string, expires: number): Buffer =>
  Crypto.createHmac("sha256", key).update(`${purpose}\n${id}\n${expires}`).digest()

const expiresPattern = /^\d{1,12}$/

/**
 * The one accepted form of a signature, unpadded base64url: Node's decoder skips stray characters and
 * low bits, so decoding what was sent would let many strings stand for one signature.
 */
const signaturePattern = /^[A-Za-z0-9_-]{43}$/

export const makeSigner = (key: Uint8Array): Signer => ({
  sign: (purpose, id, expiresAtSeconds) => digest(key, purpose, id, expiresAtSeconds).toString("base64url"),
  verify: (purpose, id, expires, signature, nowMs) => {
    if (expires === undefined || signature === undefined || !expiresPattern.test(expires)) return "invalid"
    if (!signaturePattern.test(signature)) return "invalid"
    // The canonical text is compared in constant time; only its length is public.
    const expected = Buffer.from(digest(key, purpose, id, Number(expires)).toString("base64url"), "ascii")
    if (!Crypto.timingSafeEqual(Buffer.from(signature, "ascii"), expected)) return "invalid"
    return Number(expires) * 1000 <= nowMs ? "expired" : "valid"
  }
})

/** A fresh random signing key: signed URLs then die with the process, which is what a restart should do. */
export const randomKey = (): Uint8Array => Crypto.randomBytes(32)
