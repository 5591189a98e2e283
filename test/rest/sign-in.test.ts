// The authorize-application page, the sign-in page and cookie + nonce authentication, in process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { hashLoginPassword } from '../../src/auth/passwords.js';
import { createNonce } from '../../src/auth/nonce.js';
import { LOGIN_LIMITS } from '../../src/auth/login.js';
import { scrypt, randomBytes } from 'node:crypto';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

/** A browser in miniature: keeps cookies, does not follow redirects. */
function browser() {
  const jar = new Map<string, string>();
  async function go(method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}) {
    const h = new Headers(headers);
    if (jar.size) h.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    let body: string | undefined;
    if (form) { body = new URLSearchParams(form).toString(); h.set('content-type', 'application/x-www-form-urlencoded'); }
    const res = await site.app.fetch(new Request(path.startsWith('http') ? path : `${SITE}${path}`, { method, headers: h, body }), '203.0.113.5');
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, v] = pair.split('=');
      if (/Max-Age=0/.test(c)) jar.delete(k); else jar.set(k, v);
    }
    return { status: res.status, headers: res.headers, text: await res.text() };
  }
  const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  async function signIn(login: string, password: string, redirectTo?: string) {
    const page = await go('GET', `/wp-admin/login${redirectTo ? `?redirect_to=${encodeURIComponent(redirectTo)}` : ''}`);
    return go('POST', '/wp-admin/login', { log: login, pwd: password, _csrf: hidden(page.text, '_csrf'), redirect_to: hidden(page.text, 'redirect_to') });
  }
  return { go, jar, hidden, signIn };
}

const AUTHORIZE = '/wp-admin/authorize-application.php?app_name=My%20App&success_url=https%3A%2F%2Fapp.example%2Fcb&reject_url=https%3A%2F%2Fapp.example%2Fno';

describe('authorize-application.php', () => {
  it('sends a signed-out visitor to sign in, then back; approving redirects with the password', async () => {
    const b = browser();
    const first = await b.go('GET', AUTHORIZE);
    expect(first.status).toBe(302);
    const loginUrl = first.headers.get('location')!;
    expect(loginUrl).toMatch(/^\/wp-admin\/login\?redirect_to=/);
    const form = await b.go('GET', loginUrl);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="user_login">');
    const signedIn = await b.go('POST', '/wp-admin/login', { log: 'editor1', pwd: 'editor1-password', _csrf: b.hidden(form.text, '_csrf'), redirect_to: b.hidden(form.text, 'redirect_to').replace(/&amp;/g, '&') });
    expect(signedIn.status).toBe(302);
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('site_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    // Only a hash of the token is stored.
    const token = b.jar.get('site_session')!;
    expect(await site.db.prisma.session.count({ where: { tokenHash: token } })).toBe(0);

    const page = await b.go('GET', signedIn.headers.get('location')!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('My App');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const approve = await b.go('POST', '/wp-admin/authorize-application.php', {
      action: 'authorize_application_password', _wpnonce: b.hidden(page.text, '_wpnonce'), app_name: 'My App', app_id: '',
      success_url: 'https://app.example/cb', reject_url: 'https://app.example/no', approve: '1',
    });
    expect(approve.status).toBe(302);
    const target = new URL(approve.headers.get('location')!);
    expect(target.origin + target.pathname).toBe('https://app.example/cb');
    expect(target.searchParams.get('site_url')).toBe(SITE);
    expect(target.searchParams.get('user_login')).toBe('editor1');
    const password = target.searchParams.get('password')!;
    const me = await site.req('GET', '/core/v2/users/me', { headers: { authorization: 'Basic ' + Buffer.from(`editor1:${password}`).toString('base64') } });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(site.users.editor.id);

    // The same name again: the page says why, nothing is made.
    const again = await b.go('POST', '/wp-admin/authorize-application.php', {
      _wpnonce: b.hidden(page.text, '_wpnonce'), app_name: 'My App', success_url: 'https://app.example/cb', approve: '1',
    });
    expect(again.status).toBe(400);
    expect(again.text).toContain('Each application name should be unique.');
  });

  it('rejecting redirects to reject_url (or success_url) with success=false', async () => {
    const b = browser();
    await b.signIn('author1', 'author1-password');
    const page = await b.go('GET', AUTHORIZE);
    const nonce = b.hidden(page.text, '_wpnonce');
    const rejected = await b.go('POST', '/wp-admin/authorize-application.php', { _wpnonce: nonce, app_name: 'My App', success_url: 'https://app.example/cb', reject_url: 'https://app.example/no', reject: '1' });
    expect(rejected.headers.get('location')).toBe('https://app.example/no?success=false');
    const fallback = await b.go('POST', '/wp-admin/authorize-application.php', { _wpnonce: nonce, app_name: 'My App', success_url: 'https://app.example/cb?x=1', reject: '1' });
    expect(fallback.headers.get('location')).toBe('https://app.example/cb?x=1&success=false');
    expect(await site.db.prisma.appPassword.count({ where: { userId: site.users.author.id, name: 'My App' } })).toBe(0);
  });

  it('refuses insecure redirect addresses and a bad app_id with an error page; loopback http is fine', async () => {
    const bad = await browser().go('GET', '/wp-admin/authorize-application.php?app_name=x&success_url=http%3A%2F%2Fevil.example%2F');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('secure connection');
    expect((await browser().go('GET', '/wp-admin/authorize-application.php?success_url=javascript%3Aalert(1)')).status).toBe(400);
    expect((await browser().go('GET', '/wp-admin/authorize-application.php?app_id=nope')).text).toContain('must be a UUID');
    expect((await browser().go('GET', '/wp-admin/authorize-application.php?success_url=http%3A%2F%2F127.0.0.1%3A9%2Fcb')).status).toBe(302);
  });

  it('refuses an approval without the form nonce (CSRF)', async () => {
    const b = browser();
    await b.signIn('author1', 'author1-password');
    const res = await b.go('POST', '/wp-admin/authorize-application.php', { app_name: 'Forged', success_url: 'https://evil.example/', approve: '1' });
    expect(res.status).toBe(403);
    expect(await site.db.prisma.appPassword.count({ where: { name: 'Forged' } })).toBe(0);
  });

  it('shows the password on the page when there is no success_url', async () => {
    const b = browser();
    await b.signIn('contributor1', 'contributor1-password');
    const page = await b.go('GET', '/wp-admin/authorize-application.php?app_name=Desk');
    const res = await b.go('POST', '/wp-admin/authorize-application.php', { _wpnonce: b.hidden(page.text, '_wpnonce'), app_name: 'Desk', approve: '1' });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<code id="new-application-password">([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}<\/code>/);
  });
});

describe('sign-in page', () => {
  it('needs the form token, and says why a sign-in failed', async () => {
    const b = browser();
    const noToken = await b.go('POST', '/wp-admin/login', { log: 'admin', pwd: 'admin-password' });
    expect(noToken.status).toBe(403);
    const wrong = await b.signIn('admin', 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('role="alert"');
    expect(wrong.text).toContain('The username or password you entered is incorrect.');
    expect(b.jar.has('site_session')).toBe(false);
  });

  it('locks an account after repeated failures, with a clear message', async () => {
    const b = browser();
    for (let i = 0; i < LOGIN_LIMITS.perUser - 1; i++) expect((await b.signIn('subscriber1', 'wrong')).status).toBe(401);
    const locked = await b.signIn('subscriber1', 'wrong');
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many failed sign-in attempts. Try again in 15 minutes.');
    // Even the right password waits now.
    expect((await b.signIn('subscriber1', 'subscriber1-password')).status).toBe(429);
    const row = await site.db.prisma.loginAttempt.findUnique({ where: { key: 'user:subscriber1' } });
    expect(row?.lockedUntil).toBeTruthy();
    const ip = await site.db.prisma.loginAttempt.findUnique({ where: { key: 'ip:203.0.113.5' } });
    expect(ip?.failures).toBeGreaterThanOrEqual(LOGIN_LIMITS.perUser);
    await site.db.prisma.loginAttempt.deleteMany();
  });

  it('verifies an old scrypt hash and replaces it with argon2id', async () => {
    const salt = randomBytes(16);
    const key: Buffer = await new Promise((res, rej) => scrypt('legacy-pass', salt, 32, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (e, k) => (e ? rej(e) : res(k))));
    const legacy = `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
    await site.db.prisma.user.update({ where: { id: site.users.author.id }, data: { passwordHash: legacy } });
    const b = browser();
    expect((await b.signIn('author1', 'legacy-pass')).status).toBe(302);
    const stored = (await site.db.prisma.user.findUniqueOrThrow({ where: { id: site.users.author.id } })).passwordHash;
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await browser().signIn('author1', 'legacy-pass')).status).toBe(302);
    await site.db.prisma.user.update({ where: { id: site.users.author.id }, data: { passwordHash: await hashLoginPassword('author1-password') } });
  });
});

describe('cookie + nonce authentication', () => {
  it('a cookie alone is anonymous; with the nonce it signs in and refreshes X-WP-Nonce', async () => {
    const b = browser();
    await b.signIn('editor1', 'editor1-password');
    const noNonce = await b.go('GET', '/wp-json/core/v2/users/me');
    expect(noNonce.status).toBe(401);
    const nonce = await b.go('GET', '/wp-admin/admin-ajax.php?action=rest-nonce');
    expect(nonce.status).toBe(200);
    expect(nonce.text).toMatch(/^[0-9a-f]{10}$/);
    const me = await b.go('GET', '/wp-json/core/v2/users/me', undefined, { 'x-wp-nonce': nonce.text });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.text).id).toBe(site.users.editor.id);
    expect(me.headers.get('x-wp-nonce')).toMatch(/^[0-9a-f]{10}$/);
    expect(me.headers.get('cache-control')).toContain('no-store');
    const viaParam = await b.go('POST', `/wp-json/core/v2/posts?_wpnonce=${nonce.text}`, undefined, { 'content-type': 'application/json' });
    expect(viaParam.status).not.toBe(401);
    // A forged cross-site write without the nonce runs anonymously and is refused.
    const forged = await b.go('POST', '/wp-json/core/v2/posts', { title: 'forged' });
    expect(forged.status).toBe(401);
  });

  it('a nonce that does not verify is 403 rest_cookie_invalid_nonce, with or without a cookie', async () => {
    const b = browser();
    await b.signIn('editor1', 'editor1-password');
    const bad = await b.go('GET', '/wp-json/core/v2/posts', undefined, { 'x-wp-nonce': 'deadbeef00' });
    expect({ status: bad.status, body: JSON.parse(bad.text) }).toBeWpError(403, 'rest_cookie_invalid_nonce');
    const anon = await site.req('GET', '/core/v2/posts', { headers: { 'x-wp-nonce': 'deadbeef00' } });
    expect(anon).toBeWpError(403, 'rest_cookie_invalid_nonce');
    // An anonymous nonce (user 0, no session) verifies and the request stays anonymous.
    const { siteKey } = await (await import('../../src/site/options.js')).siteSettings(site.db);
    const anonNonce = createNonce(siteKey, 'wp_rest', { userId: 0, token: '' });
    const ok = await site.req('GET', '/core/v2/posts', { headers: { 'x-wp-nonce': anonNonce } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-wp-nonce')).toBe(anonNonce);
    // The nonce header is per request: not kept in the anonymous response cache, added to its hits.
    expect((await site.req('GET', '/core/v2/posts')).headers.get('x-wp-nonce')).toBeNull();
    expect((await site.req('GET', '/core/v2/posts', { headers: { 'x-wp-nonce': anonNonce } })).headers.get('x-wp-nonce')).toBe(anonNonce);
    // A nonce of the previous 12-hour tick still works (12 hours ago is always that tick); older ones do not.
    const dayAgo = createNonce(siteKey, 'wp_rest', { userId: 0, token: '' }, Date.now() - 12 * 3600_000);
    expect((await site.req('GET', '/core/v2/posts', { headers: { 'x-wp-nonce': dayAgo } })).status).toBe(200);
    const old = createNonce(siteKey, 'wp_rest', { userId: 0, token: '' }, Date.now() - 25 * 3600_000);
    expect(await site.req('GET', '/core/v2/posts', { headers: { 'x-wp-nonce': old } })).toBeWpError(403, 'rest_cookie_invalid_nonce');
  });

  it('admin-ajax rest-nonce answers 400 "0" without a session; sign-out ends the session', async () => {
    const anon = await browser().go('GET', '/wp-admin/admin-ajax.php?action=rest-nonce');
    expect(anon.status).toBe(400);
    expect(anon.text).toBe('0');
    const b = browser();
    await b.signIn('editor1', 'editor1-password');
    const signedIn = await b.go('GET', '/wp-admin/login');
    expect(signedIn.text).toContain('editor1');
    const out = await b.go('POST', '/wp-admin/logout', { _wpnonce: b.hidden(signedIn.text, '_wpnonce') });
    expect(out.status).toBe(302);
    expect((await b.go('GET', '/wp-admin/admin-ajax.php?action=rest-nonce')).text).toBe('0');
  });
});
