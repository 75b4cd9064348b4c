import { describe, expect, it } from "vitest";
import { wordsFor } from "../operator-words.ts";
import {
  checkedLookup,
  checkOutboundUrl,
  isLocalhostName,
  OutboundAddressError,
  privateAddressesAllowed,
  type Resolve,
  refusedAddressKind,
  refusedHost,
} from "./outbound-address.ts";

/** A resolver that answers from a table (and counts what it was asked). */
function table(entries: Record<string, string[]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = entries[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

/** What checkedLookup hands a socket, or the error it refuses with. */
function lookup(
  allowPrivate: boolean,
  resolve: Resolve,
  hostname: string,
  options: { all?: boolean; family?: number } = {},
) {
  return new Promise<{ error: Error | null; address: unknown; family?: number }>((done) => {
    checkedLookup(allowPrivate, resolve)(hostname, options, (error, address, family) =>
      done({ error, address, family }),
    );
  });
}

describe("the address classifier", () => {
  it("refuses loopback, private, link-local, CGNAT, unspecified, multicast, documentation and reserved IPv4", () => {
    const cases: [string, string][] = [
      ["127.0.0.1", "a loopback"],
      ["127.255.255.254", "a loopback"],
      ["0.0.0.0", 'an unspecified ("this network")'],
      ["0.1.2.3", 'an unspecified ("this network")'],
      ["10.1.2.3", "a private"],
      ["172.16.0.1", "a private"],
      ["172.31.255.255", "a private"],
      ["192.168.1.1", "a private"],
      ["100.64.0.1", "a carrier-grade NAT"],
      ["100.127.255.255", "a carrier-grade NAT"],
      ["169.254.169.254", "a link-local"],
      ["192.0.0.8", "a reserved"],
      ["192.0.2.1", "a documentation"],
      ["198.18.0.1", "a benchmarking"],
      ["224.0.0.1", "a multicast"],
      ["255.255.255.255", "a reserved"],
    ];
    for (const [address, kind] of cases) expect(refusedAddressKind(address), address).toBe(kind);
  });

  it("refuses the IPv6 ranges and every IPv6 form of a refused IPv4 address", () => {
    const cases: [string, string][] = [
      ["::1", "a loopback"],
      ["::", "an unspecified"],
      ["[::1]", "a loopback"],
      ["::ffff:127.0.0.1", "a loopback"],
      ["::ffff:7f00:1", "a loopback"],
      ["::ffff:a9fe:a9fe", "a link-local"],
      ["::ffff:10.0.0.1", "a private"],
      ["64:ff9b::7f00:1", "a loopback"],
      ["64:ff9b::a9fe:a9fe", "a link-local"],
      ["2002:c0a8:0101::1", "a private"],
      ["2002:7f00:1::", "a loopback"],
      ["::127.0.0.1", "a loopback"],
      ["fc00::1", "a unique local (private)"],
      ["fd12:3456:789a::1", "a unique local (private)"],
      ["fe80::1", "a link-local"],
      ["fe80::1%eth0", "a link-local"],
      ["febf::1", "a link-local"],
      ["fec0::1", "a site-local"],
      ["ff02::1", "a multicast"],
      ["2001:db8::1", "a documentation"],
      ["2001:0:4136:e378::1", "a Teredo"],
      ["64:ff9b:1::1", "a NAT64 local-use"],
    ];
    for (const [address, kind] of cases) expect(refusedAddressKind(address), address).toBe(kind);
  });

  it("lets public unicast addresses through, also inside NAT64 and 6to4, and refuses what is not an address", () => {
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "100.63.255.255",
      "100.128.0.0",
      "172.15.255.255",
      "172.32.0.0",
      "169.253.0.1",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
      "2a00:1450:4001:80b::200e",
    ]) {
      expect(refusedAddressKind(address), address).toBeUndefined();
    }
    for (const junk of ["", "localhost", "999.1.1.1", "1.2.3", "::g", "example.com"])
      expect(refusedAddressKind(junk), junk).toBe("an invalid");
  });

  it("refuses a URL's host in any spelling the URL parser reads as a refused address, and localhost names", () => {
    const refused = [
      "http://127.0.0.1:8080/mcp",
      "http://2130706433/mcp",
      "http://0x7f000001/mcp",
      "http://017700000001/mcp",
      "http://0177.0.0.1/mcp",
      "http://127.1/mcp",
      "http://0/mcp",
      "http://0.0.0.0/mcp",
      "http://[::]/mcp",
      "http://[::1]/mcp",
      "http://[::ffff:127.0.0.1]/mcp",
      "http://[::ffff:169.254.169.254]/latest",
      "http://169.254.169.254/latest/meta-data",
      "http://[fe80::1]/mcp",
      "http://[fd00::1]/mcp",
      "http://100.64.1.1/mcp",
      "http://localhost:3000/mcp",
      "http://LOCALHOST./mcp",
      "http://api.localhost/mcp",
    ];
    for (const url of refused) expect(refusedHost(new URL(url).hostname), url).toBeInstanceOf(OutboundAddressError);
    expect(refusedHost(new URL("http://8.8.8.8/mcp").hostname)).toBeUndefined();
    expect(refusedHost(new URL("https://mcp.example.com/mcp").hostname)).toBeUndefined();
    expect(wordsFor(refusedHost("localhost")?.message ?? "", true)).toMatch(
      /^localhost names this machine \(a loopback address\); .*HINTLINE_MCP_ALLOW_PRIVATE=1/,
    );
    // The variable is the operator's: anyone else reads that whoever runs the server can allow such addresses.
    const refusal = refusedHost("[::ffff:7f00:1]")?.message ?? "";
    expect(wordsFor(refusal, true)).toBe(
      "::ffff:7f00:1 is a loopback address; loopback, private and link-local addresses are refused unless the operator sets HINTLINE_MCP_ALLOW_PRIVATE=1",
    );
    expect(wordsFor(refusal, false)).toBe(
      "::ffff:7f00:1 is a loopback address; loopback, private and link-local addresses are refused on this server (whoever runs it can allow them)",
    );
    expect(isLocalhostName("localhost.example.com")).toBe(false);
  });

  it("reads HINTLINE_MCP_ALLOW_PRIVATE=1 only", () => {
    expect(privateAddressesAllowed({ HINTLINE_MCP_ALLOW_PRIVATE: "1" })).toBe(true);
    for (const value of [undefined, "", "0", "true", "yes"])
      expect(privateAddressesAllowed({ HINTLINE_MCP_ALLOW_PRIVATE: value })).toBe(false);
  });
});

describe("checking a URL when it is added", () => {
  it("refuses an address as written and a name that resolves to a refused address (any of its addresses), without naming it", async () => {
    const resolve = table({
      "rebind.test": ["93.184.216.34", "10.0.0.7"],
      "public.test": ["93.184.216.34", "2606:2800:220:1::1"],
      "v6.test": ["fd00::5"],
    });
    await expect(checkOutboundUrl("http://127.0.0.1:9/mcp", { allowPrivate: false, resolve })).rejects.toThrow(
      /^127\.0\.0\.1 is a loopback address/,
    );
    await expect(checkOutboundUrl("http://rebind.test/mcp", { allowPrivate: false, resolve })).rejects.toThrow(
      /^rebind\.test resolves to a private address; /,
    );
    await expect(checkOutboundUrl("http://v6.test/mcp", { allowPrivate: false, resolve })).rejects.toThrow(
      /^v6\.test resolves to a unique local \(private\) address/,
    );
    await expect(checkOutboundUrl("http://rebind.test/mcp", { allowPrivate: false, resolve })).rejects.not.toThrow(
      /10\.0\.0\.7/,
    );
    await expect(
      checkOutboundUrl("https://public.test/mcp", { allowPrivate: false, resolve }),
    ).resolves.toBeUndefined();
    // A name that does not resolve now is let be (every connection is checked again), as is one that takes too long.
    await expect(
      checkOutboundUrl("https://unknown.test/mcp", { allowPrivate: false, resolve }),
    ).resolves.toBeUndefined();
    const never: Resolve = () => new Promise(() => undefined);
    await expect(
      checkOutboundUrl("https://slow.test/mcp", { allowPrivate: false, resolve: never, timeoutMs: 20 }),
    ).resolves.toBeUndefined();
    resolve.asked.length = 0;
    await expect(checkOutboundUrl("http://127.0.0.1/mcp", { allowPrivate: true, resolve })).resolves.toBeUndefined();
    await expect(checkOutboundUrl("http://rebind.test/mcp", { allowPrivate: true, resolve })).resolves.toBeUndefined();
    expect(resolve.asked).toEqual([]);
  });

  it("with the system resolver: localhost's hosts-file entry is refused when resolved by name", async () => {
    const socket = await lookup(false, undefined as unknown as Resolve, "localhost");
    expect(socket.error).toBeInstanceOf(OutboundAddressError);
    expect(socket.error?.message).toMatch(/^localhost resolves to a loopback address/);
  });
});

describe("the socket's lookup", () => {
  it("resolves once and hands the socket exactly the addresses it checked", async () => {
    const resolve = table({ "two.test": ["93.184.216.34", "2606:2800:220:1::1"] });
    expect(await lookup(false, resolve, "two.test", { all: true })).toEqual({
      error: null,
      address: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800:220:1::1", family: 6 },
      ],
      family: undefined,
    });
    expect(await lookup(false, resolve, "two.test")).toEqual({ error: null, address: "93.184.216.34", family: 4 });
    expect(await lookup(false, resolve, "two.test", { family: 6 })).toEqual({
      error: null,
      address: "2606:2800:220:1::1",
      family: 6,
    });
    expect(resolve.asked).toEqual(["two.test", "two.test", "two.test"]);
  });

  it("refuses a name with any refused address, even of a family the socket did not ask for, unless private ones are allowed", async () => {
    const resolve = table({ "mixed.test": ["93.184.216.34", "::1"], "meta.test": ["169.254.169.254"] });
    const mixed = await lookup(false, resolve, "mixed.test", { family: 4 });
    expect(mixed.error).toBeInstanceOf(OutboundAddressError);
    expect(mixed.error?.message).toMatch(/^mixed\.test resolves to a loopback address/);
    expect((await lookup(false, resolve, "meta.test", { all: true })).error?.message).toMatch(
      /resolves to a link-local address/,
    );
    expect(await lookup(true, resolve, "meta.test")).toEqual({ error: null, address: "169.254.169.254", family: 4 });
    const missing = await lookup(false, resolve, "gone.test");
    expect((missing.error as NodeJS.ErrnoException).code).toBe("ENOTFOUND");
  });
});
