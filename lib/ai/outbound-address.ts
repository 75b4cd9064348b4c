// Which addresses a user-given URL (an MCP server's, later a state source's) may reach: only public unicast ones,
// unless the operator sets HINTLINE_MCP_ALLOW_PRIVATE=1. Loopback, private, link-local, carrier-grade NAT, multicast,
// documentation and reserved ranges are refused, also when written in another form (an IPv4-mapped, NAT64, 6to4 or
// IPv4-compatible IPv6 address; decimal, octal and hex IPv4 are normalised by the URL parser) and also behind a name:
// the name is resolved, every address it resolves to is checked, and the connection goes to an address so checked
// (checkedLookup, the `lookup` of outbound-fetch.ts's sockets), so a name cannot answer differently the second time.
import dns from "node:dns";
import net from "node:net";
import { operatorNote } from "../operator-words.ts";

/** The variable that lets user-given URLs reach loopback, private and link-local addresses (tests and one-machine setups set it). */
export const ALLOW_PRIVATE_VARIABLE = "HINTLINE_MCP_ALLOW_PRIVATE";
/** How long the check of a URL at add time waits for its name to resolve (a name that does not resolve is let be). */
export const RESOLVE_TIMEOUT_MS = 5_000;

export function privateAddressesAllowed(env: Record<string, string | undefined> = process.env): boolean {
  return env[ALLOW_PRIVATE_VARIABLE]?.trim() === "1";
}

/** A URL refused because of where it points (before anything was sent there). */
export class OutboundAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutboundAddressError";
  }
}

type Range = [kind: string, network: string, prefix: number];

const IPV4_RANGES: Range[] = [
  ['an unspecified ("this network")', "0.0.0.0", 8],
  ["a private", "10.0.0.0", 8],
  ["a carrier-grade NAT", "100.64.0.0", 10],
  ["a loopback", "127.0.0.0", 8],
  ["a link-local", "169.254.0.0", 16],
  ["a private", "172.16.0.0", 12],
  ["a reserved", "192.0.0.0", 24],
  ["a documentation", "192.0.2.0", 24],
  ["a private", "192.168.0.0", 16],
  ["a benchmarking", "198.18.0.0", 15],
  ["a documentation", "198.51.100.0", 24],
  ["a documentation", "203.0.113.0", 24],
  ["a multicast", "224.0.0.0", 4],
  ["a reserved", "240.0.0.0", 4],
];

const IPV6_RANGES: Range[] = [
  ["an unspecified", "::", 128],
  ["a loopback", "::1", 128],
  ["a discard-only", "100::", 64],
  ["a Teredo", "2001::", 32],
  ["a documentation", "2001:db8::", 32],
  ["a documentation", "3fff::", 20],
  ["a NAT64 local-use", "64:ff9b:1::", 48],
  ["a unique local (private)", "fc00::", 7],
  ["a link-local", "fe80::", 10],
  ["a site-local", "fec0::", 10],
  ["a multicast", "ff00::", 8],
];

const hex = (high: number, low: number) => ((high << 8) | low).toString(16);

/** The IPv6 forms that carry an IPv4 address (NAT64, 6to4, IPv4-compatible) of an IPv4 range, as IPv6 ranges. */
function embeddedRanges([kind, network, prefix]: Range): Range[] {
  const [a, b, c, d] = network.split(".").map(Number) as [number, number, number, number];
  return [
    [kind, `64:ff9b::${network}`, 96 + prefix],
    [kind, `::${network}`, 96 + prefix],
    [kind, `2002:${hex(a, b)}:${hex(c, d)}::`, 16 + prefix],
  ];
}

/** One block list per kind, in the order above (the first that holds an address names it). */
const RULES: Array<{ kind: string; list: net.BlockList }> = (() => {
  const byKind = new Map<string, net.BlockList>();
  const add = (kind: string, network: string, prefix: number, family: "ipv4" | "ipv6") => {
    const list = byKind.get(kind) ?? new net.BlockList();
    byKind.set(kind, list);
    list.addSubnet(network, prefix, family);
  };
  for (const [kind, network, prefix] of IPV6_RANGES.slice(0, 2)) add(kind, network, prefix, "ipv6");
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is checked against the IPv4 ranges by BlockList itself.
  for (const range of IPV4_RANGES) {
    add(range[0], range[1], range[2], "ipv4");
    for (const [kind, network, prefix] of embeddedRanges(range)) add(kind, network, prefix, "ipv6");
  }
  for (const [kind, network, prefix] of IPV6_RANGES.slice(2)) add(kind, network, prefix, "ipv6");
  return [...byKind].map(([kind, list]) => ({ kind, list }));
})();

/**
 * Why an IP address may not be reached ("a loopback", "a private", …, as in "is a loopback address"), or undefined
 * for a public unicast address. Anything that is not an IP address is refused ("an invalid").
 */
export function refusedAddressKind(address: string): string | undefined {
  const bare = address.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const family = net.isIP(bare);
  if (!family) return "an invalid";
  const type = family === 4 ? "ipv4" : "ipv6";
  return RULES.find((rule) => rule.list.check(bare, type))?.kind;
}

/** Names that always mean this machine (RFC 6761), refused without asking DNS. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

// The variable is the operator's to set (lib/operator-words.ts): anyone else reads who can allow such addresses.
const ADVICE = `loopback, private and link-local addresses are refused${operatorNote(
  ` unless the operator sets ${ALLOW_PRIVATE_VARIABLE}=1`,
  " on this server (whoever runs it can allow them)",
)}`;

/** The refusal of a URL's host as written (an IP address or a localhost name), or undefined when it needs resolving or is fine. */
export function refusedHost(hostname: string): OutboundAddressError | undefined {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  if (isLocalhostName(bare))
    return new OutboundAddressError(`${bare} names this machine (a loopback address); ${ADVICE}`);
  if (!net.isIP(bare)) return undefined;
  const kind = refusedAddressKind(bare);
  return kind ? new OutboundAddressError(`${bare} is ${kind} address; ${ADVICE}`) : undefined;
}

/** The refusal of a name some of whose addresses are refused (the addresses themselves are not named). */
function refusedName(hostname: string, addresses: readonly string[]): OutboundAddressError | undefined {
  for (const address of addresses) {
    const kind = refusedAddressKind(address);
    if (kind) return new OutboundAddressError(`${hostname} resolves to ${kind} address; ${ADVICE}`);
  }
  return undefined;
}

export type ResolvedAddress = { address: string; family: number };
/** Resolves a name to all its addresses (dns.lookup, as sockets do: the hosts file counts). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A socket's `lookup` that resolves the name once, refuses it when any of its addresses is refused, and hands the
 * socket exactly the addresses it checked.
 */
export function checkedLookup(allowPrivate: boolean, resolve: Resolve = systemResolve) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (resolved) => {
        const family =
          options.family === 4 || options.family === "IPv4"
            ? 4
            : options.family === 6 || options.family === "IPv6"
              ? 6
              : 0;
        const addresses = family ? resolved.filter((a) => a.family === family) : resolved;
        // Every address counts, whichever family the socket asked for: a name with one refused address is refused.
        const refusal = allowPrivate
          ? undefined
          : (refusedName(
              hostname,
              resolved.map((a) => a.address),
            ) ?? refusedHost(hostname));
        if (refusal) return callback(refusal, "");
        if (!addresses.length)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

/**
 * Throws OutboundAddressError when a URL points at a refused address: its host as written, or what its name resolves
 * to now. A name that does not resolve (or not within RESOLVE_TIMEOUT_MS) passes: every connection is checked again.
 */
export async function checkOutboundUrl(
  url: string,
  {
    allowPrivate = privateAddressesAllowed(),
    resolve = systemResolve,
    timeoutMs = RESOLVE_TIMEOUT_MS,
  }: { allowPrivate?: boolean; resolve?: Resolve; timeoutMs?: number } = {},
): Promise<void> {
  if (allowPrivate) return;
  const { hostname } = new URL(url);
  const refusal = refusedHost(hostname);
  if (refusal) throw refusal;
  if (net.isIP(hostname.replace(/^\[(.*)\]$/, "$1"))) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((done) => {
    timer = setTimeout(() => done(undefined), timeoutMs);
  });
  const resolved = await Promise.race([resolve(hostname).catch(() => undefined), late]).finally(() =>
    clearTimeout(timer),
  );
  const refusedByName =
    resolved &&
    refusedName(
      hostname,
      resolved.map((a) => a.address),
    );
  if (refusedByName) throw refusedByName;
}
