// Preloaded (`node --import`) into a server process by the remote-fetch test: the network as the
// test needs it, not the code under test. The name in ROUTED_HOST resolves to ROUTED_PUBLIC_ADDRESS
// (a public address, so the server's address checks pass), and connections to that address reach
// 127.0.0.1, where the test's file server listens: as if that public host served the file.
import * as Dns from "node:dns"
import * as Net from "node:net"

const host = process.env.ROUTED_HOST
const publicAddress = process.env.ROUTED_PUBLIC_ADDRESS
if (host === undefined || publicAddress === undefined) {
  throw new Error("ROUTED_HOST and ROUTED_PUBLIC_ADDRESS are needed")
}

const lookup = Dns.promises.lookup
Dns.promises.lookup = (hostname, options) =>
  hostname.toLowerCase() === host ? Promise.resolve([{ address: publicAddress, family: 4 }]) : lookup(hostname, options)

const reroute = (address) => address === publicAddress ? "127.0.0.1" : address
const connect = Net.Socket.prototype.connect
Net.Socket.prototype.connect = function(...args) {
  const options = Array.isArray(args[0]) ? args[0][0] : args[0]
  if (typeof options === "object" && options !== null && typeof options.lookup === "function") {
    const original = options.lookup
    options.lookup = (name, lookupOptions, callback) =>
      original(name, lookupOptions, (error, address, family) =>
        callback(
          error,
          Array.isArray(address)
            ? address.map((entry) => ({ ...entry, address: reroute(entry.address) }))
            : reroute(address),
          family
        ))
  }
  return connect.apply(this, args)
}
