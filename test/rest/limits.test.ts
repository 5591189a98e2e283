// Request limits and hardening, in process: body size (BODY_MAX_BYTES), JSON nesting depth,
// bracket nesting of form names, the client address behind trusted proxies (TRUST_PROXY) for
// last_ip and the contact-form rate limit, CORS and nosniff, and unexpected failures that answer
// without a trace of their cause (which goes to the log, stack included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, SITE, type TestSite } from '../helpers/app.js';
import { createApp } from '../../gateway/app.js';
import { createLogger, useLogger } from '../../src/log.js';
import { parseTrustProxy } from '../../src/config.js';
import type { Db } from '../../src/db/client.js';
import { parseQueryString } from '../../gateway/params.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite({ bodyMaxBytes: 4096 }); });
afterAll(async () => { await site?.close(); });

/** Log lines written while `fn` runs. */
async function logged(fn: () => Promise<void>): Promise<any[]> {
  const lines: any[] = [];
  const previous = useLogger(createLogger({ level: 'info', destination: { write: (s: string) => void lines.push(JSON.parse(s)) } }));
  try { await fn(); } finally { useLogger(previous); }
  return lines;
}

const nested = (depth: number, inner: unknown = 1): string => '['.repeat(depth) + JSON.stringify(inner) + ']'.repeat(depth);

describe('body size (BODY_MAX_BYTES)', () => {
  it('refuses a JSON body over the limit with 413 rest_request_too_large, with the REST headers', async () => {
    const res = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'x', content: 'a'.repeat(5000) }, headers: { origin: 'https://app.example' } });
    expect(res).toBeWpError(413, 'rest_request_too_large');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(await site.db.prisma.content.count({ where: { title: 'x' } })).toBe(0);
  });

  it('refuses a form body over the limit, and counts a body sent without a length', async () => {
    const form = await site.req('POST', '/core/v2/posts', { as: 'administrator', body: `title=y&content=${'b'.repeat(5000)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form).toBeWpError(413, 'rest_request_too_large');
    // A streamed body has no Content-Length: it is counted as it arrives.
    const chunks = [new TextEncoder().encode('{"title":"z","content":"'), new TextEncoder().encode('c'.repeat(5000)), new TextEncoder().encode('"}')];
    const body = new ReadableStream({ pull(c) { const next = chunks.shift(); if (next) c.enqueue(next); else c.close(); } });
    const res = await site.app.fetch(new Request(`${API}/core/v2/posts`, { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'application/json', authorization: site.users.administrator.auth } } as RequestInit));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'rest_request_too_large', data: { status: 413 } });
  });

  it('takes a body just under the limit', async () => {
    const res = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'fits', content: 'd'.repeat(3000) } });
    expect(res.status).toBe(201);
  });
});

describe('JSON depth', () => {
  it('refuses nesting deeper than 512 with 400 rest_invalid_json (JSON_ERROR_DEPTH), never a 500', async () => {
    const deep = await site.req('POST', '/core/v2/posts', { as: 'administrator', body: `{"title":"deep","meta":${nested(600)}}`, headers: { 'content-type': 'application/json' } });
    expect(deep).toBeWpError(400, 'rest_invalid_json');
    expect(deep.body.data).toMatchObject({ json_error_code: 1, json_error_message: 'Maximum stack depth exceeded' });
    // Far deeper than any stack: still the same 400 (the body fits the site's larger limit).
    const big = await createTestSite();
    try {
      const res = await big.req('POST', '/core/v2/posts', { as: 'administrator', body: nested(200_000), headers: { 'content-type': 'application/json' } });
      expect(res).toBeWpError(400, 'rest_invalid_json');
      const batch = await big.req('POST', '/batch/v1', { as: 'administrator', body: `{"requests":${nested(100_000)}}`, headers: { 'content-type': 'application/json' } });
      expect(batch).toBeWpError(400, 'rest_invalid_json');
    } finally { await big.close(); }
  });

  it('takes 512 levels (the body object counts as one)', async () => {
    const res = await site.req('POST', '/core/v2/posts', { as: 'administrator', body: `{"title":"deep enough","unknown_param":${nested(511)}}`, headers: { 'content-type': 'application/json' } });
    expect(res.status, res.text).toBe(201);
    const over = await site.req('POST', '/core/v2/posts', { as: 'administrator', body: `{"title":"one too deep","unknown_param":${nested(512)}}`, headers: { 'content-type': 'application/json' } });
    expect(over).toBeWpError(400, 'rest_invalid_json');
  });

  it('drops form and query names nested past 64 brackets, as PHP does', async () => {
    const deepName = `title${'[a]'.repeat(65)}`;
    // In process even in the bundle lane: this request line is past node's header limit (431 at the HTTP door).
    const res = await site.req('POST', `/core/v2/posts?${encodeURIComponent(`x${'[b]'.repeat(5000)}`)}=1`, { as: 'administrator', body: `${encodeURIComponent(deepName)}=t&title=kept&status=draft`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, inProcess: true });
    expect(res.status, res.text).toBe(201);
    expect(res.body.title.raw).toBe('kept');
    // 64 levels are kept, 65 dropped.
    const kept = parseQueryString(`a${'[x]'.repeat(64)}=1`);
    let node: any = kept.a;
    for (let i = 1; i < 64; i++) node = node.x;
    expect(node).toEqual({ x: '1' });
    expect(parseQueryString(`a${'[x]'.repeat(65)}=1&b=2`)).toEqual({ b: '2' });
  });
});

describe('client address behind proxies (TRUST_PROXY)', () => {
  const introspect = (s: TestSite, peer: string, headers: Record<string, string>) =>
    s.app.fetch(new Request(`${API}/core/v2/users/me/application-passwords/introspect`, { headers: { authorization: s.users.editor.auth, ...headers } }), peer);

  async function lastIpAfter(s: TestSite, peer: string, headers: Record<string, string>): Promise<string | null> {
    await s.db.prisma.appPassword.updateMany({ where: { userId: s.users.editor.id }, data: { lastUsed: null, lastIp: null } });
    expect((await introspect(s, peer, headers)).status).toBe(200);
    return (await s.db.prisma.appPassword.findFirstOrThrow({ where: { userId: s.users.editor.id, name: 'tests' } })).lastIp;
  }

  it('ignores forwarding headers by default: last_ip is the peer', async () => {
    expect(await lastIpAfter(site, '::ffff:203.0.113.9', { 'x-forwarded-for': '198.51.100.1' })).toBe('203.0.113.9');
  });

  it('with a trusted proxy, last_ip is the address it forwarded', async () => {
    const behind = await createTestSite({ trustProxy: parseTrustProxy('10.0.0.0/8, ::1') });
    try {
      expect(await lastIpAfter(behind, '10.1.2.3', { 'x-forwarded-for': '198.51.100.1, 10.9.9.9' })).toBe('198.51.100.1');
      // A peer outside the list is the client, whatever it claims.
      expect(await lastIpAfter(behind, '192.0.2.50', { 'x-forwarded-for': '198.51.100.1' })).toBe('192.0.2.50');
    } finally { await behind.close(); }
    const forwarded = await createTestSite({ trustProxy: parseTrustProxy('true'), proxyHeader: 'forwarded' });
    try {
      expect(await lastIpAfter(forwarded, '10.1.2.3', { forwarded: 'for=192.0.2.1, for="[2001:db8::7]:4711";proto=https', 'x-forwarded-for': '198.51.100.1' })).toBe('2001:db8::7');
    } finally { await forwarded.close(); }
  });

  it('rate-limits contact forms per client, not per proxy', async () => {
    const formSite = async (trust: string) => {
      const s = await createTestSite({ smtpUrl: null, formRateLimit: 1, trustProxy: parseTrustProxy(trust) });
      const m = await s.req('POST', '/forms/v1/contact-forms?context=save', { as: 'administrator', json: { title: 'Limited', form: '[text a]', additional_settings: 'skip_mail: on' } });
      expect(m.status, m.text).toBe(200);
      const send = async (client: string) => {
        const body = new FormData();
        body.append('_wpcf7_unit_tag', 'u');
        const res = await s.app.fetch(new Request(`${API}/forms/v1/contact-forms/${m.body.id}/feedback`, { method: 'POST', body, headers: { 'user-agent': 'agent', 'x-forwarded-for': client } }), '127.0.0.1');
        return (await res.json()).status as string;
      };
      return { s, send };
    };
    const trusted = await formSite('1');
    try {
      expect([await trusted.send('198.51.100.1'), await trusted.send('198.51.100.2'), await trusted.send('198.51.100.1')]).toEqual(['mail_sent', 'mail_sent', 'spam']);
    } finally { await trusted.s.close(); }
    const direct = await formSite('');
    try {
      expect([await direct.send('198.51.100.1'), await direct.send('198.51.100.2')]).toEqual(['mail_sent', 'spam']);
    } finally { await direct.s.close(); }
  });
});

describe('CORS and nosniff', () => {
  it('answers a preflight with the origin, methods, credentials and allowed headers', async () => {
    const res = await site.req('OPTIONS', '/core/v2/posts', { headers: { origin: 'https://editor.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    expect(res.status).toBe(200);
    expect(Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('access-control-') || k === 'vary' || k === 'x-content-type-options'))).toEqual({
      'access-control-allow-origin': 'https://editor.example',
      'access-control-allow-methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, X-Content-Version',
      'access-control-expose-headers': 'X-WP-Total, X-WP-TotalPages, Link, X-Content-Version',
      'x-content-type-options': 'nosniff',
      vary: 'Origin',
    });
  });

  it('sends no allow-origin without an Origin, and nosniff on errors too', async () => {
    const res = await site.req('GET', '/core/v2/posts/999999');
    expect(res).toBeWpError(404, 'rest_post_invalid_id');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('unexpected failures', () => {
  it('answer 500 internal_server_error without the cause, and log it with its stack', async () => {
    const secret = 'SECRET-CAUSE-7731';
    const prisma = new Proxy(site.db.prisma, {
      get(target, prop, receiver) {
        if (prop === 'content') throw new Error(`${secret}: the store fell over`);
        return Reflect.get(target, prop, receiver);
      },
    });
    // Reads past Prisma (Db.read, the hot content reads) fail the same way.
    const read = async () => { throw new Error(`${secret}: the store fell over`); };
    const broken = Object.create(site.db, { prisma: { value: prisma }, read: { value: read } }) as Db;
    const app = createApp({ ...site.app.config, webhookDispatch: false }, broken);
    let rest: Response | undefined;
    let restText = '';
    let gqlText = '';
    const lines = await logged(async () => {
      rest = await app.fetch(new Request(`${API}/core/v2/posts`));
      restText = await rest.text();
      const gql = await app.fetch(new Request(`${SITE}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ posts(perPage: 1) { nodes { id } } }' }) }));
      gqlText = await gql.text();
    });
    expect(rest!.status).toBe(500);
    expect(JSON.parse(restText)).toEqual({ code: 'internal_server_error', message: 'The server could not answer this request.', data: { status: 500 } });
    for (const text of [restText, gqlText]) {
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/\bat .+:\d+:\d+/);
      expect(text).not.toContain('stack');
    }
    expect(JSON.parse(gqlText).errors[0].message).toBe('Unexpected error.');
    const errors = lines.filter((l) => l.level === 50);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    for (const e of errors) {
      expect(e.err.message).toContain(secret);
      expect(e.err.stack).toMatch(/\bat .+:\d+:\d+/);
    }
  });
});
