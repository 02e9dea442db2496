import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Why an address must not be fetched: the ranges are ipaddr.js's, the kinds ours, so the user is
 * told which kind of address was refused, and IPv4 addresses embedded in IPv6 ones (mapped,
 * compatible, NAT64, 6to4) are judged by the IPv4 rules.
 */
export type BlockedKind =
  'loopback' | 'private' | 'link-local' | 'shared' | 'unspecified' | 'metadata' | 'multicast' | 'reserved';

const KIND_WORDS: Record<BlockedKind, string> = {
  loopback: 'a loopback address (this machine itself)',
  private: 'a private network address',
  'link-local': 'a link-local address',
  shared: 'a shared carrier-grade NAT address',
  unspecified: 'an unspecified address',
  metadata: 'a cloud metadata address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

/** The plain-words sentence shown as the 422 error on `url`. */
export function blockedMessage(kind: BlockedKind, viaRedirect: boolean): string {
  const subject = viaRedirect ? 'The page redirects to' : 'The URL points to';
  return `${subject} ${KIND_WORDS[kind]}, which this server does not fetch.`;
}

// ipaddr.js names the special-purpose ranges (IANA's registries); these say which kind each is.
// A range name not listed here (a newer ipaddr.js may add some) is refused as reserved.
const V4_KINDS: Record<string, BlockedKind | null> = {
  unicast: null,
  // Anycast services on the public internet.
  as112: null,
  amt: null,
  unspecified: 'unspecified',
  broadcast: 'reserved',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'shared',
  private: 'private',
  reserved: 'reserved',
  benchmarking: 'reserved',
};

const V6_KINDS: Record<string, BlockedKind | null> = {
  unicast: null,
  amt: null,
  as112v6: null,
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'private',
};

const METADATA_V4 = ipaddr.IPv4.parse('169.254.169.254');
const METADATA_V6 = ipaddr.IPv6.parse('fd00:ec2::254');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parse('64:ff9b::');
const GLOBAL_UNICAST = ipaddr.IPv6.parse('2000::');

function classifyV4(ip: ipaddr.IPv4): BlockedKind | null {
  // The metadata address sits inside link-local and must be named as such.
  if (ip.match(METADATA_V4, 32)) return 'metadata';
  const kind = V4_KINDS[ip.range()];
  return kind === undefined ? 'reserved' : kind;
}

/** The IPv4 address carried in two 16-bit groups of an IPv6 address, starting at `at`. */
function embeddedV4(ip: ipaddr.IPv6, at: number): ipaddr.IPv4 {
  const hi = ip.parts[at] ?? 0;
  const lo = ip.parts[at + 1] ?? 0;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function classifyV6(ip: ipaddr.IPv6): BlockedKind | null {
  if (ip.match(METADATA_V6, 128)) return 'metadata';
  const range = ip.range();
  // Addresses that carry an IPv4 one reach it, so the IPv4 rules judge them: mapped (::ffff:0:0/96),
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16). The deprecated "compatible" (::/96) and the
  // translated (::ffff:0:0:0/96) forms are no public address even when the IPv4 one is.
  if (range === 'ipv4Mapped') return classifyV4(ip.toIPv4Address());
  if (range === 'rfc6052' && ip.match(NAT64_WELL_KNOWN, 96)) return classifyV4(embeddedV4(ip, 6));
  if (range === '6to4') return classifyV4(embeddedV4(ip, 1));
  if (range === 'rfc6145') return classifyV4(embeddedV4(ip, 6)) ?? 'reserved';
  if (range === 'unicast' && ip.parts.slice(0, 6).every((part) => part === 0)) {
    return classifyV4(embeddedV4(ip, 6)) ?? 'reserved';
  }
  const kind = V6_KINDS[range];
  if (kind === undefined) return 'reserved';
  if (kind !== null) return kind;
  // Everything outside 2000::/3, the global unicast range, is not a public internet host.
  return ip.match(GLOBAL_UNICAST, 3) ? null : 'reserved';
}

/** Strips the brackets URL.hostname keeps around IPv6 literals. */
export function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * The kind of non-public address `address` is, or null when it is a public address.
 * Anything that is not a valid IP address counts as reserved, so a parsing gap never lets
 * a request through.
 */
export function classifyAddress(address: string): BlockedKind | null {
  const ip = unbracket(address);
  // node:net is strict where ipaddr.js is lenient (it takes `127.1` and `0x7f.0.0.1` too).
  if (isIPv4(ip)) return classifyV4(ipaddr.IPv4.parse(ip));
  if (isIPv6(ip)) {
    try {
      // ipaddr.js reads any dotted tail as IPv4-mapped (`::8.8.8.8` as `::ffff:8.8.8.8`); the URL
      // parser's canonical form writes every group in hex, so the address is read as written.
      const canonical = unbracket(new URL(`http://[${ip.replace(/%.*$/, '')}]/`).hostname);
      return classifyV6(ipaddr.IPv6.parse(canonical));
    } catch {
      return 'reserved';
    }
  }
  return 'reserved';
}
