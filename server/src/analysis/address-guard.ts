import { isIPv4, isIPv6 } from 'node:net';

/**
 * Why an address must not be fetched. Classified by hand rather than with net.BlockList so the
 * user is told which kind of address was refused, and so IPv4 addresses embedded in IPv6 ones
 * (mapped, compatible, NAT64, 6to4) are judged by the IPv4 rules.
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

interface V4Rule {
  base: number;
  bits: number;
  kind: BlockedKind;
}

function v4(text: string): number {
  const parts = text.split('.').map(Number);
  return (((parts[0] ?? 0) << 24) | ((parts[1] ?? 0) << 16) | ((parts[2] ?? 0) << 8) | (parts[3] ?? 0)) >>> 0;
}

// Order matters: the metadata address sits inside link-local and must be named as such.
const V4_RULES: V4Rule[] = [
  { base: v4('169.254.169.254'), bits: 32, kind: 'metadata' },
  { base: v4('0.0.0.0'), bits: 8, kind: 'unspecified' },
  { base: v4('10.0.0.0'), bits: 8, kind: 'private' },
  { base: v4('100.64.0.0'), bits: 10, kind: 'shared' },
  { base: v4('127.0.0.0'), bits: 8, kind: 'loopback' },
  { base: v4('169.254.0.0'), bits: 16, kind: 'link-local' },
  { base: v4('172.16.0.0'), bits: 12, kind: 'private' },
  { base: v4('192.0.0.0'), bits: 24, kind: 'reserved' },
  { base: v4('192.0.2.0'), bits: 24, kind: 'reserved' },
  { base: v4('192.88.99.0'), bits: 24, kind: 'reserved' },
  { base: v4('192.168.0.0'), bits: 16, kind: 'private' },
  { base: v4('198.18.0.0'), bits: 15, kind: 'reserved' },
  { base: v4('198.51.100.0'), bits: 24, kind: 'reserved' },
  { base: v4('203.0.113.0'), bits: 24, kind: 'reserved' },
  { base: v4('224.0.0.0'), bits: 4, kind: 'multicast' },
  { base: v4('240.0.0.0'), bits: 4, kind: 'reserved' },
];

function classifyV4(value: number): BlockedKind | null {
  for (const rule of V4_RULES) {
    const mask = rule.bits === 0 ? 0 : (0xffffffff << (32 - rule.bits)) >>> 0;
    if ((value & mask) >>> 0 === (rule.base & mask) >>> 0) return rule.kind;
  }
  return null;
}

/** Eight 16-bit groups of an IPv6 address (zone id dropped, embedded dotted IPv4 accepted). */
function parseV6(text: string): number[] | null {
  let input = text.replace(/%.*$/, '');
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(input);
  if (dotted?.[1]) {
    if (!isIPv4(dotted[1])) return null;
    const n = v4(dotted[1]);
    tail.push(n >>> 16, n & 0xffff);
    input = input.slice(0, -dotted[1].length);
    if (input.endsWith(':') && !input.endsWith('::')) input = input.slice(0, -1);
  }
  const halves = input.split('::');
  if (halves.length > 2) return null;
  const toGroups = (part: string | undefined) =>
    part
      ? part
          .split(':')
          .filter((g) => g !== '')
          .map((g) => Number.parseInt(g, 16))
      : [];
  const head = toGroups(halves[0]);
  const rest = halves.length === 2 ? toGroups(halves[1]) : [];
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 && known !== 8) return null;
  if (known > 8) return null;
  const groups = [...head, ...Array<number>(8 - known).fill(0), ...rest, ...tail];
  return groups.some((g) => Number.isNaN(g) || g < 0 || g > 0xffff) ? null : groups;
}

function classifyV6(groups: number[]): BlockedKind | null {
  const g = (i: number) => groups[i] ?? 0;
  const embeddedV4 = (hi: number, lo: number) => ((g(hi) << 16) | g(lo)) >>> 0;
  const zeroUpTo = (n: number) => groups.slice(0, n).every((x) => x === 0);

  if (groups.every((x) => x === 0)) return 'unspecified';
  if (zeroUpTo(7) && g(7) === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (the deprecated "compatible" form) carry an IPv4 address.
  if (zeroUpTo(5) && g(5) === 0xffff) return classifyV4(embeddedV4(6, 7));
  if (zeroUpTo(6)) return classifyV4(embeddedV4(6, 7)) ?? 'reserved';
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the embedded IPv4 address.
  if (g(0) === 0x64 && g(1) === 0xff9b && groups.slice(2, 6).every((x) => x === 0)) {
    return classifyV4(embeddedV4(6, 7));
  }
  if (g(0) === 0x2002) return classifyV4(embeddedV4(1, 2));
  if (g(0) === 0xfd00 && g(1) === 0x0ec2 && groups.slice(2, 7).every((x) => x === 0) && g(7) === 0x254) {
    return 'metadata';
  }
  if ((g(0) & 0xfe00) === 0xfc00) return 'private';
  if ((g(0) & 0xffc0) === 0xfe80) return 'link-local';
  if ((g(0) & 0xff00) === 0xff00) return 'multicast';
  if (g(0) === 0x2001 && g(1) === 0x0db8) return 'reserved';
  // Everything outside 2000::/3, the global unicast range, is not a public internet host.
  if ((g(0) & 0xe000) !== 0x2000) return 'reserved';
  return null;
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
  if (isIPv4(ip)) return classifyV4(v4(ip));
  if (isIPv6(ip)) {
    const groups = parseV6(ip);
    return groups ? classifyV6(groups) : 'reserved';
  }
  return 'reserved';
}
