// TRUST_PROXY: parsing the setting and walking the forwarding chain.
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../src/http/client-ip.js';
import { loadConfig, parseTrustProxy } from '../../src/config.js';

describe('parseTrustProxy', () => {
  it('is off unless set', () => {
    for (const v of [undefined, '', '0', 'false', 'off']) expect(parseTrustProxy(v)).toBeNull();
    expect(loadConfig({}).trustProxy).toBeNull();
  });

  it('takes true, hop counts and address lists', () => {
    expect(parseTrustProxy('true')).toEqual({ hops: 1 });
    expect(parseTrustProxy('1')).toEqual({ hops: 1 });
    expect(parseTrustProxy('3')).toEqual({ hops: 3 });
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.4, ::1, fd00::/8')).toMatchObject({ text: '10.0.0.0/8, 192.168.1.4, ::1, fd00::/8' });
  });

  it('refuses what is not an address or range', () => {
    for (const v of ['proxy.example', '10.0.0.0/33', '::1/129', '10.0.0.1/8/2', 'loopback']) expect(() => parseTrustProxy(v)).toThrow(/TRUST_PROXY/);
  });
});

describe('clientAddress', () => {
  const list = parseTrustProxy('10.0.0.0/8, ::1')!;

  it('is the peer without trust or without a header', () => {
    expect(clientAddress('::ffff:10.0.0.1', '198.51.100.1', null)).toBe('::ffff:10.0.0.1');
    expect(clientAddress('10.0.0.1', undefined, list)).toBe('10.0.0.1');
  });

  it('walks a list right to left to the first untrusted hop', () => {
    expect(clientAddress('::ffff:10.0.0.1', '203.0.113.5, 198.51.100.1, 10.2.2.2', list)).toBe('198.51.100.1');
    expect(clientAddress('::1', '10.3.3.3, 10.2.2.2', list)).toBe('10.3.3.3');
    expect(clientAddress('192.0.2.9', '198.51.100.1', list)).toBe('192.0.2.9');
  });

  it('counts hops', () => {
    expect(clientAddress('192.0.2.9', '203.0.113.5, 198.51.100.1', { hops: 1 })).toBe('198.51.100.1');
    expect(clientAddress('192.0.2.9', '203.0.113.5, 198.51.100.1', { hops: 2 })).toBe('203.0.113.5');
    expect(clientAddress('192.0.2.9', '203.0.113.5', { hops: 5 })).toBe('203.0.113.5');
  });

  it('reads ports, brackets and Forwarded for= values, and stops at a hop that is no address', () => {
    expect(clientAddress('10.0.0.1', '198.51.100.1:5123', list)).toBe('198.51.100.1');
    expect(clientAddress('10.0.0.1', 'for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711"', list, 'forwarded')).toBe('2001:db8:cafe::17');
    expect(clientAddress('10.0.0.1', 'for=unknown', list, 'forwarded')).toBe('10.0.0.1');
    expect(clientAddress('10.0.0.1', '198.51.100.1, garbage, 10.4.4.4', list)).toBe('10.4.4.4');
  });
});
