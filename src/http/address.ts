// Which IP addresses a server-side fetch may connect to. Everything that is not ordinary public
// unicast is refused: private, loopback, link-local, CGNAT, multicast, broadcast, reserved and
// documentation ranges, and the cloud metadata addresses. IPv6 forms that carry an IPv4 address
// (mapped, NAT64, 6to4) are judged by the IPv4 address inside them.
import { isIPv4, isIPv6 } from 'node:net';

interface Range { base: bigint; bits: number; size: number; why: string }

function range(cidr: string, why: string): Range {
  const [addr, len] = cidr.split('/');
  const v4 = isIPv4(addr);
  const size = v4 ? 32 : 128;
  return { base: v4 ? ipv4ToBigInt(addr) : ipv6ToBigInt(addr), bits: Number(len ?? size), size, why };
}

const V4_BLOCKED: Range[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrier-grade NAT'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'IETF protocol assignments'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', '6to4 relay'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'), // includes the broadcast address 255.255.255.255
];

/** Metadata services of cloud hosts; most lie in a blocked range already, named so a change of ranges cannot expose them. */
const V4_METADATA = ['169.254.169.254', '100.100.100.200', '168.63.129.16'].map((a) => range(`${a}/32`, 'cloud metadata'));
const V6_METADATA = [range('fd00:ec2::254/128', 'cloud metadata')];

const V6_BLOCKED: Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'IPv4-compatible'), // deprecated ::a.b.c.d
  range('64:ff9b:1::/48', 'local NAT64'),
  range('100::/64', 'discard'),
  range('2001::/32', 'Teredo'),
  range('2001:db8::/32', 'documentation'),
  range('fc00::/7', 'unique local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

/** IPv6 prefixes whose low bits hold an IPv4 address: [prefix, shift of the IPv4 part]. */
const V6_EMBEDDING: [Range, number][] = [
  [range('::ffff:0:0/96', 'IPv4-mapped'), 0],
  [range('64:ff9b::/96', 'NAT64'), 0],
  [range('2002::/16', '6to4'), 80],
];

function inRange(value: bigint, r: Range): boolean {
  const shift = BigInt(r.size - r.bits);
  return value >> shift === r.base >> shift;
}

/**
 * Why `ip` must not be connected to ('loopback', 'private' …), or null when it is public.
 * Anything that is not an IP address at all is refused too.
 */
export function blockedReason(ip: string): string | null {
  const address = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(address)) return v4Reason(ipv4ToBigInt(address));
  if (!isIPv6(address)) return 'not an IP address';
  const value = ipv6ToBigInt(address);
  for (const r of V6_METADATA) if (inRange(value, r)) return r.why;
  for (const [r, shift] of V6_EMBEDDING) {
    if (inRange(value, r)) return v4Reason((value >> BigInt(shift)) & 0xffffffffn);
  }
  for (const r of V6_BLOCKED) if (inRange(value, r)) return r.why;
  return null;
}

export const isBlockedAddress = (ip: string): boolean => blockedReason(ip) !== null;

function v4Reason(value: bigint): string | null {
  for (const r of V4_METADATA) if (inRange(value, r)) return r.why;
  for (const r of V4_BLOCKED) if (inRange(value, r)) return r.why;
  return null;
}

function ipv4ToBigInt(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** A valid IPv6 address (as net.isIPv6 accepts it) as a 128-bit number. */
function ipv6ToBigInt(address: string): bigint {
  let text = address.toLowerCase();
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = ipv4ToBigInt(tail[1]);
    text = text.slice(0, tail.index) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = rest === undefined ? left : [...left, ...Array<string>(missing).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}
