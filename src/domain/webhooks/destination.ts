import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Addresses a webhook must never be sent to (SSRF): every IPv4 address that is not global unicast
 * (loopback, private, link-local with the cloud metadata at 169.254.169.254, carrier-grade NAT,
 * benchmarking, documentation, multicast, reserved...), and every IPv6 address that is not global
 * unicast. IPv6 forms that embed or translate an IPv4 address are judged by that IPv4 address:
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96, as in ::ffff:0:7f00:1),
 * IPv4-compatible (::/96, as in [::127.0.0.1]), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo
 * (2001::/32, server and client). Parsing and the special ranges are ipaddr.js's; a few ranges it
 * does not name are added here.
 */
const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blockedV4.addSubnet(net, prefix, 'ipv4');
}

const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['2001::', 23], // IETF protocol assignments (Teredo, 2001::/32, is judged before this)
] as const) {
  blockedV6.addSubnet(net, prefix, 'ipv6');
}

/** Global unicast IPv6 (2000::/3): everything outside it is special, unassigned or local. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

function isPrivateV4(address: ipaddr.IPv4): boolean {
  return address.range() !== 'unicast' || blockedV4.check(address.toString(), 'ipv4');
}

const v4 = (b: number[], at: number) => new ipaddr.IPv4([b[at] ?? 0, b[at + 1] ?? 0, b[at + 2] ?? 0, b[at + 3] ?? 0]);

/** The IPv4 addresses an IPv6 address embeds or translates to, or undefined when it embeds none. */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const b = address.toByteArray();
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  // IPv4-mapped ::ffff:a.b.c.d
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return [v4(b, 12)];
  // IPv4-translated (SIIT) ::ffff:0:a.b.c.d
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return [v4(b, 12)];
  // IPv4-compatible ::a.b.c.d (deprecated, but still routed to the embedded address by some stacks)
  if (zero(0, 12)) return [v4(b, 12)];
  // NAT64 well-known prefix 64:ff9b::/96
  if (address.match(ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number])) return [v4(b, 12)];
  // 6to4 2002:AABB:CCDD::/48
  if (b[0] === 0x20 && b[1] === 0x02) return [v4(b, 2)];
  // Teredo 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC (client address and port obfuscated by XOR)
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) {
    const client = b.slice(12).map((x) => x ^ 0xff);
    return [v4(b, 4), v4(client, 0)];
  }
  return undefined;
}

/**
 * Which private addresses webhook endpoints may reach (WEBHOOK_ALLOW_PRIVATE_NETWORKS): `none`
 * (production, and a hosted sandbox: `false`), `loopback` (the sandbox's default: a local run's
 * receivers on this machine, never the network around it nor the cloud metadata) or `all` (`true`).
 */
export type PrivateNetworks = 'none' | 'loopback' | 'all';

/** Whether a webhook may not be sent to `address` under `allowed`. */
export function isRefusedAddress(address: string, allowed: PrivateNetworks): boolean {
  if (allowed === 'all' || !isPrivateAddress(address)) return false;
  return allowed === 'none' || !isLoopback(address);
}

function isLoopback(address: string): boolean {
  try {
    const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address as its IPv4 one
    return parsed.range() === 'loopback';
  } catch {
    return false;
  }
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address: refuse rather than guess
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv4') return isPrivateV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (v6.zoneId) return true; // scoped: link-local by definition
  const embedded = embeddedIPv4(v6);
  // :: and ::1 sit in the IPv4-compatible block (they embed 0.0.0.0 and 0.0.0.1): both refused.
  if (embedded) return embedded.some(isPrivateV4);
  if (!v6.match(GLOBAL_UNICAST_V6)) return true; // fc00::/7, fe80::/10, fec0::/10, ff00::/8, 100::/64, 64:ff9b:1::/48...
  return v6.range() !== 'unicast' || blockedV6.check(v6.toNormalizedString(), 'ipv6');
}

/** The URL's host as an address, when it is a literal IP (brackets removed for IPv6). */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : undefined;
}
