import { assert, describe, it } from "@effect/vitest"
import { RateLimit } from "@pdf-transform/core"
import { FastCheck as fc, Option } from "effect"

const now = Date.UTC(2026, 10, 21, 12, 0, 0)

describe("RateLimit-Policy", () => {
  it("parses the draft -11 syntax, Strings and Tokens alike", () => {
    assert.deepStrictEqual(
      RateLimit.parsePolicies(`"burst";q=10;w=1, "conc";q=4;qu="concurrent-requests"`),
      [
        { name: "burst", quota: 10, unit: "requests", window: 1 },
        { name: "conc", quota: 4, unit: "concurrent-requests" }
      ]
    )
    // A Token where the draft says String is accepted, as RELIABILITY.md asks.
    assert.deepStrictEqual(RateLimit.parsePolicies(`conc;q=2;qu=concurrent-requests`), [
      { name: "conc", quota: 2, unit: "concurrent-requests" }
    ])
  })

  it("ignores unknown parameters and drops items missing q", () => {
    assert.deepStrictEqual(RateLimit.parsePolicies(`"a";q=5;zz=1;pk=:AQID:, "b";w=10`), [
      { name: "a", quota: 5, unit: "requests" }
    ])
  })

  it("ignores a malformed field whole", () => {
    assert.deepStrictEqual(RateLimit.parsePolicies(`"a";q=5, "b";q=`), [])
    assert.deepStrictEqual(RateLimit.parsePolicies(`"a";q=5,,`), [])
    assert.deepStrictEqual(RateLimit.parsePolicies(""), [])
    assert.deepStrictEqual(RateLimit.parsePolicies(undefined), [])
  })

  it("joins a field sent on several lines", () => {
    assert.deepStrictEqual(
      RateLimit.parsePolicies([`"a";q=1`, `"b";q=2;qu="concurrent-requests"`]).map((p) => p.name),
      [
        "a",
        "b"
      ]
    )
  })

  it("drops negative quotas and caps huge ones", () => {
    assert.deepStrictEqual(RateLimit.parsePolicies(`"a";q=-1`), [])
    assert.strictEqual(RateLimit.parsePolicies(`"a";q=999999999999999`)[0]?.quota, RateLimit.maxHeaderNumber)
  })

  it("finds the smallest concurrency quota", () => {
    const info = RateLimit.parse({
      policy: `"burst";q=10;w=1, "c1";q=4;qu="concurrent-requests", "c2";q=3;qu=concurrent-requests`
    })
    assert.deepStrictEqual(RateLimit.concurrencyLimit(info), Option.some(3))
    assert.deepStrictEqual(RateLimit.concurrencyLimit(RateLimit.parse({ policy: `"burst";q=10` })), Option.none())
  })
})

describe("RateLimit", () => {
  it("parses remaining and reset; concurrency hints omit t", () => {
    assert.deepStrictEqual(RateLimit.parseStates(`"burst";r=3;t=1, "conc";r=0`), [
      { name: "burst", remaining: 3, reset: 1 },
      { name: "conc", remaining: 0 }
    ])
  })

  it("drops items without r", () => {
    assert.deepStrictEqual(RateLimit.parseStates(`"burst";t=1`), [])
  })

  it("reads both fields from lower-cased headers", () => {
    const info = RateLimit.fromHeaders({ "ratelimit-policy": `"burst";q=10;w=1`, "ratelimit": `"burst";r=9;t=1` })
    assert.strictEqual(info.policies.length, 1)
    assert.strictEqual(info.states[0]?.remaining, 9)
  })
})

describe("Retry-After", () => {
  it("reads delta-seconds", () => {
    assert.deepStrictEqual(RateLimit.parseRetryAfter("3", { now }), Option.some(3000))
    assert.deepStrictEqual(RateLimit.parseRetryAfter(" 0 ", { now }), Option.some(0))
  })

  it("reads an HTTP-date against the response Date, not the local clock", () => {
    const date = new Date(now).toUTCString()
    const at = new Date(now + 5000).toUTCString()
    // The local clock is an hour ahead: the server's Date header is what counts.
    assert.deepStrictEqual(RateLimit.parseRetryAfter(at, { date, now: now + 3_600_000 }), Option.some(5000))
    // Without a Date header the local clock is used.
    assert.deepStrictEqual(RateLimit.parseRetryAfter(at, { now }), Option.some(5000))
    // A date in the past means now.
    assert.deepStrictEqual(RateLimit.parseRetryAfter(new Date(now - 5000).toUTCString(), { now }), Option.some(0))
  })

  it("gives none for negative, fractional or garbage values", () => {
    for (const value of ["-1", "1.5", "soon", "", "NaN", "Infinity", "1e3", "12abc", "2026"]) {
      assert.deepStrictEqual(RateLimit.parseRetryAfter(value, { now }), Option.none(), value)
    }
  })

  it("caps huge values at 2^31-1 ms", () => {
    assert.deepStrictEqual(RateLimit.parseRetryAfter("99999999999", { now }), Option.some(RateLimit.maxDelayMs))
    assert.deepStrictEqual(RateLimit.parseRetryAfterMs(1e15), Option.some(RateLimit.maxDelayMs))
    assert.deepStrictEqual(RateLimit.parseRetryAfterMs(Number.MAX_VALUE), Option.some(RateLimit.maxDelayMs))
  })
})

describe("retryDelay", () => {
  it("takes the larger valid value when retryAfterMs and Retry-After disagree", () => {
    assert.deepStrictEqual(RateLimit.retryDelay({ retryAfterMs: 1500, retryAfter: "3", now }), Option.some(3000))
    assert.deepStrictEqual(RateLimit.retryDelay({ retryAfterMs: 4500, retryAfter: "3", now }), Option.some(4500))
  })

  it("falls back to the valid one when the other is garbage", () => {
    assert.deepStrictEqual(RateLimit.retryDelay({ retryAfterMs: -5, retryAfter: "2", now }), Option.some(2000))
    assert.deepStrictEqual(RateLimit.retryDelay({ retryAfterMs: 700, retryAfter: "later", now }), Option.some(700))
    assert.deepStrictEqual(RateLimit.retryDelay({ retryAfterMs: Number.NaN, retryAfter: "x", now }), Option.none())
    assert.deepStrictEqual(RateLimit.retryDelay({ retryAfterMs: "abc", now }), Option.none())
  })
})

/** Strings shaped like the fields, with random damage. */
const headerish = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom(...`"abcqrtwu=;,:-. 0123456789*?()`.split("")) }),
  fc.array(
    fc.tuple(
      fc.constantFrom(`"burst"`, `conc`, `"x"`, `1`, `?1`, `(a b)`),
      fc.array(fc.tuple(
        fc.constantFrom("q", "r", "t", "w", "qu", "pk", "zz"),
        fc.oneof(
          fc.integer().map(String),
          fc.double().map(String),
          fc.constantFrom(`"concurrent-requests"`, `concurrent-requests`, `:AQ==:`, `?0`, ``)
        )
      ))
    ).map(([name, params]) => `${name}${params.map(([k, v]) => `;${k}=${v}`).join("")}`)
  ).map((items) => items.join(", "))
)

describe("parsers are total", () => {
  it.prop("RateLimit-Policy never throws; every policy is well-formed", [headerish], ([input]) => {
    for (const policy of RateLimit.parsePolicies(input)) {
      assert.isTrue(Number.isFinite(policy.quota) && policy.quota >= 0 && policy.quota <= RateLimit.maxHeaderNumber)
      assert.isString(policy.name)
      assert.isString(policy.unit)
      if (policy.window !== undefined) assert.isTrue(policy.window >= 0 && policy.window <= RateLimit.maxHeaderNumber)
    }
  })

  it.prop("RateLimit never throws; every state is well-formed", [headerish], ([input]) => {
    for (const state of RateLimit.parseStates(input)) {
      assert.isTrue(Number.isFinite(state.remaining) && state.remaining >= 0)
      if (state.reset !== undefined) assert.isTrue(Number.isFinite(state.reset) && state.reset >= 0)
    }
  })

  it.prop("malformed fields give absent, never a partial list", [fc.string()], ([junk]) => {
    // Appending an unterminated string makes any field invalid as a whole.
    assert.deepStrictEqual(RateLimit.parsePolicies(`"a";q=1, "${junk.replaceAll("\"", "")}`), [])
  })

  it.prop(
    "every computed delay is finite, >= 0 and within the cap",
    [
      fc.oneof(fc.anything(), fc.double(), fc.integer(), fc.string()),
      fc.oneof(fc.string(), fc.integer().map(String), fc.date({ noInvalidDate: false }).map((d) => String(d))),
      fc.option(fc.oneof(fc.string(), fc.date().map((d) => d.toUTCString())), { nil: undefined }),
      fc.integer({ min: 0, max: 4_000_000_000_000 })
    ],
    ([retryAfterMs, retryAfter, date, clock]) => {
      const delays = [
        RateLimit.retryDelay({ retryAfterMs, retryAfter, date, now: clock }),
        RateLimit.parseRetryAfter(retryAfter, { date, now: clock }),
        RateLimit.parseRetryAfterMs(retryAfterMs)
      ]
      for (const delay of delays) {
        if (Option.isSome(delay)) {
          assert.isTrue(Number.isFinite(delay.value), String(delay.value))
          assert.isTrue(delay.value >= 0 && delay.value <= RateLimit.maxDelayMs, String(delay.value))
        }
      }
    }
  )

  it.prop("garbage Retry-After gives none", [fc.string().filter((s) => !/\d/.test(s))], ([input]) => {
    assert.deepStrictEqual(RateLimit.parseRetryAfter(input, { now }), Option.none())
  })
})
