/**
 * Which IP addresses the mirror may connect to. Only globally reachable unicast addresses are
 * public; loopback, private, link-local (cloud metadata), CGNAT, documentation, multicast and
 * reserved ranges are refused, and so are IPv6 forms that embed such an IPv4 address
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4). IPv6 is an allow-list: only 2000::/3 (global
 * unicast) is public, minus its special-purpose blocks.
 */
import ipaddr from 'ipaddr.js';
import { memoize } from './memo.js';

export type AddressReason =
  | 'invalid'
  | 'unspecified'
  | 'this-network'
  | 'private'
  | 'shared'
  | 'loopback'
  | 'link-local'
  | 'ietf-protocol'
  | 'documentation'
  | '6to4-relay'
  | 'benchmarking'
  | 'multicast'
  | 'reserved'
  | 'broadcast'
  | 'unique-local'
  | 'site-local'
  | 'discard'
  | 'nat64-local';

export type AddressClass = 'public' | AddressReason;

type Range<T> = [T, number];

const v4 = (cidr: string): Range<ipaddr.IPv4> => ipaddr.IPv4.parseCIDR(cidr);
const v6 = (cidr: string): Range<ipaddr.IPv6> => ipaddr.IPv6.parseCIDR(cidr);

/** IPv4 special-purpose blocks (IANA registry, RFC 6890 and successors). Order matters. */
const IPV4_REFUSED: [Range<ipaddr.IPv4>, AddressReason][] = [
  [v4('255.255.255.255/32'), 'broadcast'],
  [v4('0.0.0.0/8'), 'this-network'],
  [v4('10.0.0.0/8'), 'private'],
  [v4('100.64.0.0/10'), 'shared'],
  [v4('127.0.0.0/8'), 'loopback'],
  [v4('169.254.0.0/16'), 'link-local'],
  [v4('172.16.0.0/12'), 'private'],
  [v4('192.0.0.0/24'), 'ietf-protocol'],
  [v4('192.0.2.0/24'), 'documentation'],
  [v4('192.88.99.0/24'), '6to4-relay'],
  [v4('192.168.0.0/16'), 'private'],
  [v4('198.18.0.0/15'), 'benchmarking'],
  [v4('198.51.100.0/24'), 'documentation'],
  [v4('203.0.113.0/24'), 'documentation'],
  [v4('224.0.0.0/4'), 'multicast'],
  [v4('240.0.0.0/4'), 'reserved'],
];

/** IPv6 blocks refused outright, checked before the global-unicast allow-list. */
const IPV6_REFUSED: [Range<ipaddr.IPv6>, AddressReason][] = [
  // Local-use NAT64 prefix (RFC 8215): not globally reachable, and its embedded IPv4 sits at a
  // position that depends on a prefix length we cannot know, so it is refused as a whole.
  [v6('64:ff9b:1::/48'), 'nat64-local'],
  [v6('100::/64'), 'discard'],
  // 2001:db8::/32 sits inside 2001::/23, so it must come first.
  [v6('2001:db8::/32'), 'documentation'],
  // IETF protocol assignments, including Teredo (2001::/32) and ORCHID.
  [v6('2001::/23'), 'ietf-protocol'],
  [v6('3fff::/20'), 'documentation'],
  [v6('fc00::/7'), 'unique-local'],
  [v6('fe80::/10'), 'link-local'],
  [v6('fec0::/10'), 'site-local'],
  [v6('ff00::/8'), 'multicast'],
];

const IPV6_MAPPED = v6('::ffff:0:0/96');
const IPV6_COMPATIBLE = v6('::/96');
const IPV6_NAT64 = v6('64:ff9b::/96');
const IPV6_6TO4 = v6('2002::/16');
const IPV6_GLOBAL_UNICAST = v6('2000::/3');

function classifyV4(addr: ipaddr.IPv4): AddressClass {
  for (const [range, reason] of IPV4_REFUSED) if (addr.match(range)) return reason;
  return 'public';
}

function fromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function classifyV6(addr: ipaddr.IPv6): AddressClass {
  const p = addr.parts;
  const word = (i: number) => p[i] ?? 0;
  if (p.every((part) => part === 0)) return 'unspecified';
  if (p.slice(0, 7).every((part) => part === 0) && word(7) === 1) return 'loopback';
  // Forms that carry an IPv4 address: the IPv4 address decides.
  if (addr.match(IPV6_MAPPED)) return classifyV4(fromWords(word(6), word(7)));
  if (addr.match(IPV6_COMPATIBLE)) return classifyV4(fromWords(word(6), word(7)));
  if (addr.match(IPV6_NAT64)) return classifyV4(fromWords(word(6), word(7)));
  if (addr.match(IPV6_6TO4)) return classifyV4(fromWords(word(1), word(2)));
  for (const [range, reason] of IPV6_REFUSED) if (addr.match(range)) return reason;
  if (!addr.match(IPV6_GLOBAL_UNICAST)) return 'reserved';
  return 'public';
}

/**
 * Classifies an IP address (any form parseHostAsIp accepts): 'public', or why it is refused.
 * Anything that is not an IP address is 'invalid'.
 */
export function classifyAddress(ip: string): AddressClass {
  const normalized = parseHostAsIp(ip);
  if (normalized === null) return 'invalid';
  const addr = ipaddr.parse(normalized);
  return addr.kind() === 'ipv4' ? classifyV4(addr as ipaddr.IPv4) : classifyV6(addr as ipaddr.IPv6);
}

export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === 'public';
}

/** One IPv4 part as the WHATWG URL host parser reads it: decimal, 0x-hex or 0-octal. */
function parseIPv4Part(part: string): number | null {
  if (part === '') return null;
  if (/^0x/i.test(part)) {
    const digits = part.slice(2);
    if (digits === '') return 0;
    return /^[0-9a-f]+$/i.test(digits) ? parseInt(digits, 16) : null;
  }
  if (part.length > 1 && part.startsWith('0')) {
    const digits = part.slice(1);
    return /^[0-7]+$/.test(digits) ? parseInt(digits, 8) : null;
  }
  return /^[0-9]+$/.test(part) ? parseInt(part, 10) : null;
}

/**
 * IPv4 in every form browsers and inet_aton accept: `127.0.0.1`, `2130706433`, `0x7f000001`,
 * `0177.0.0.1`, `0x7f.0.0.1`, `127.1`, `127.0.1`, with an optional trailing dot.
 */
function parseIPv4(host: string): string | null {
  const parts = host.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = parseIPv4Part(part);
    if (n === null) return null;
    numbers.push(n);
  }
  const last = numbers.pop() ?? 0;
  if (numbers.some((n) => n > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((n, i) => {
    value += n * 256 ** (3 - i);
  });
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

/**
 * The IP address a host name denotes when it is an IP literal, normalized (dotted-quad IPv4,
 * RFC 5952 IPv6, brackets and zone id dropped); null for a real host name that needs DNS.
 */
export const parseHostAsIp: (hostname: string) => string | null = memoize(parseHost, 1024);

/** `parseHostAsIp` without its memory (every request's hop and connection asks again). */
function parseHost(hostname: string): string | null {
  let host = hostname.toLowerCase();
  if (host.startsWith('[')) {
    if (!host.endsWith(']')) return null;
    host = host.slice(1, -1);
    if (!host.includes(':')) return null;
  }
  if (host.includes(':')) {
    // Zone id: `fe80::1%eth0`, or `%25eth0` as it appears inside URLs.
    const zone = host.indexOf('%');
    if (zone !== -1) host = host.slice(0, zone);
    if (!ipaddr.IPv6.isValid(host)) return null;
    return ipaddr.IPv6.parse(host).toRFC5952String();
  }
  return parseIPv4(host);
}
