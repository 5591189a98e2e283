// The client's address behind reverse proxies (TRUST_PROXY). Without the setting it is the
// socket's peer and forwarding headers are ignored: anyone can write them. With it, the chain is
// walked from the peer back through the forwarding header (X-Forwarded-For, or RFC 7239
// Forwarded), right to left, while the current hop is trusted; the first untrusted hop is the
// client. Trust is either a hop count (`true`/`1`: the peer is a proxy; `2`: the peer and the
// proxy before it) or a list of proxy addresses and CIDR ranges, read from TRUST_PROXY by src/config.ts.
import { isIP } from 'node:net';
import { plainAddress as plain, type ProxyHeader, type TrustProxy } from '../config.js';

/** One hop as written in a header: `1.2.3.4`, `1.2.3.4:80`, `[::1]:80`, `"[::1]"`; null when it is no address (`unknown`, `_hidden`). */
function hopAddress(raw: string): string | null {
  let s = raw.trim().replace(/^"|"$/g, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) s = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.indexOf(':'));
  s = plain(s);
  return isIP(s) ? s : null;
}

/** The `for=` hops of a Forwarded header, in order. */
function forwardedFor(header: string): string[] {
  const hops: string[] = [];
  for (const element of header.split(',')) {
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for') hops.push(pair.slice(eq + 1));
    }
  }
  return hops;
}

function trusted(trust: TrustProxy, address: string, index: number): boolean {
  if ('hops' in trust) return index < trust.hops;
  return trust.list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client's address: `peer` (the socket's remote address) unless it is a trusted proxy; then
 * the forwarding header's hops are walked right to left. A hop that is no address ends the walk
 * at the last address reached.
 */
export function clientAddress(peer: string | undefined, header: string | null | undefined, trust: TrustProxy | null, which: ProxyHeader = 'x-forwarded-for'): string | undefined {
  if (!trust || !peer || !header) return peer;
  const hops = which === 'forwarded' ? forwardedFor(header) : header.split(',');
  let address = plain(peer);
  for (let i = hops.length - 1, n = 0; trusted(trust, address, n) && i >= 0; i--, n++) {
    const next = hopAddress(hops[i]);
    if (!next) break;
    address = next;
  }
  return address;
}
