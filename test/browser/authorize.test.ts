// The authorize-application flow in a real browser (Debian's Chromium through playwright-core)
// against the real node:http server: sign in, approve, follow the redirect to the application's
// loopback callback, use the password it received; and the reject path.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { browserTestsRun, close, launchChromium, listen, serveSite } from '../helpers/browser.js';
import { setOption } from '../../src/site/options.js';

describe.runIf(browserTestsRun(import.meta.filename))('authorize-application in Chromium', () => {
  let site: TestSite;
  let server: Server;
  let callback: Server;
  let browser: Browser;
  let base = '';
  let callbackBase = '';
  const received: URL[] = [];
  const waiters: ((u: URL) => void)[] = [];
  const nextCallback = () => new Promise<URL>((resolve) => waiters.push(resolve));

  beforeAll(async () => {
    // The application's side: a loopback page that records what it was sent.
    callback = createServer((req, res) => {
      const url = new URL(req.url ?? '/', callbackBase);
      received.push(url);
      waiters.shift()?.(url);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' }).end('<!doctype html><title>Callback</title><p>Received.</p>');
    });
    callbackBase = `http://127.0.0.1:${await listen(callback)}`;

    site = await createTestSite();
    // The real server (gateway/server.ts over createApp): its address is known only once it
    // listens, so the socket is opened first and the app's request handler attached after.
    ({ server, base } = await serveSite(site, async (address) => {
      await setOption(site.db.prisma, 'siteurl', address);
      site.db.changed();
    }));
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await close(server);
    await close(callback);
    await site?.close();
  });

  it('signs in, approves, and the application signs in with the password it received', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const authorize = `${base}/wp-admin/authorize-application.php?${new URLSearchParams({ app_name: 'Browser App', success_url: `${callbackBase}/done`, reject_url: `${callbackBase}/rejected` })}`;
    await page.goto(authorize);
    expect(new URL(page.url()).pathname).toBe('/wp-admin/login');

    await page.getByLabel('Username or email address').fill('editor1');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('incorrect');

    await page.getByLabel('Password').fill('editor1-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/authorize-application\.php/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Authorize application');
    expect(await page.getByLabel('New application password name').inputValue()).toBe('Browser App');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'site_session')!;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe('Lax');

    const arrived = nextCallback();
    await page.getByRole('button', { name: 'Yes, I approve of this connection' }).click();
    const url = await arrived;
    expect(url.pathname).toBe('/done');
    expect(url.searchParams.get('site_url')).toBe(base);
    expect(url.searchParams.get('user_login')).toBe('editor1');
    const password = url.searchParams.get('password')!;
    expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);

    const me = await fetch(`${base}/wp-json/core/v2/users/me?context=edit`, { headers: { authorization: 'Basic ' + Buffer.from(`editor1:${password}`).toString('base64') } });
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body.id).toBe(site.users.editor.id);
    expect(body.username).toBe('editor1');

    // The session cookie alone does not authenticate REST calls from a page of the site; with the nonce it does.
    await page.goto(`${base}/wp-admin/login`);
    expect(await page.getByText('You are signed in as').textContent()).toContain('editor1');
    await page.goto(`${base}/wp-json/`); // the sign-in pages allow no scripts to connect (CSP)
    const withoutNonce = await page.evaluate(async () => (await fetch('/wp-json/core/v2/users/me')).status);
    expect(withoutNonce).toBe(401);
    const withNonce = await page.evaluate(async () => {
      const nonce = await (await fetch('/wp-admin/admin-ajax.php?action=rest-nonce')).text();
      const res = await fetch('/wp-json/core/v2/users/me', { headers: { 'X-WP-Nonce': nonce } });
      return { status: res.status, id: (await res.json()).id };
    });
    expect(withNonce).toEqual({ status: 200, id: site.users.editor.id });
    await context.close();
  }, 120_000);

  it('rejecting sends the browser to reject_url with success=false and makes no password', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/wp-admin/authorize-application.php?${new URLSearchParams({ app_name: 'Unwanted', success_url: `${callbackBase}/done`, reject_url: `${callbackBase}/rejected` })}`);
    await page.getByLabel('Username or email address').fill('author1');
    await page.getByLabel('Password').fill('author1-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/authorize-application\.php/);
    const arrived = nextCallback();
    await page.getByRole('button', { name: 'No, I do not approve of this connection' }).click();
    const url = await arrived;
    expect(url.pathname).toBe('/rejected');
    expect(url.searchParams.get('success')).toBe('false');
    expect(url.searchParams.has('password')).toBe(false);
    expect(await site.db.prisma.appPassword.count({ where: { name: 'Unwanted' } })).toBe(0);
    await context.close();
  }, 120_000);
});
