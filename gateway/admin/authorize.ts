// The browser side of sign-in, under ADMIN_PATH (default /wp-admin), as WordPress's
// authorize-application.php, wp-login.php and admin-ajax.php `rest-nonce`:
//   GET/POST authorize-application.php  approve or reject an application's request for an
//                                       application password (sign-in first)
//   GET/POST login                      sign in with the account's login password (throttled)
//   POST     logout                     end the session
//   GET/POST admin-ajax.php?action=rest-nonce   a `wp_rest` nonce for the session (else 400 "0")
// Plain HTML forms: everything works without JavaScript. Fetch-style, so app.fetch serves it and
// the node:http front hands it the requests under ADMIN_PATH. No Prisma here: src/ does the work.
import { randomBytes } from 'node:crypto';
import type { Config } from '../../src/config.js';
import type { Db } from '../../src/db/client.js';
import { createContext } from '../../src/context.js';
import { RestError } from '../../src/errors.js';
import { siteSettings } from '../../src/site/options.js';
import { signIn } from '../../src/auth/login.js';
import { createNonce, verifyNonce } from '../../src/auth/nonce.js';
import { createSession, destroySession, readCookie, SESSION_COOKIE, SESSION_SECONDS, sessionUser, type SessionUser } from '../../src/auth/sessions.js';
import { restNonceForSession } from '../../src/auth/request.js';
import { safeEqual } from '../../src/auth/passwords.js';
import { issueApplicationPassword } from '../../src/users/application-passwords.js';

const LOGIN_CSRF_COOKIE = 'site_login_csrf';
const AUTHORIZE_ACTION = 'authorize_application_password';
const LOGOUT_ACTION = 'log-out';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AdminHandler = (request: Request, ip?: string) => Promise<Response>;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** https, or http to a loopback host only (wp_is_authorize_application_redirect_url_valid, with local apps allowed). */
export function redirectUrlError(value: string, label: string): string | null {
  if (!value) return null;
  let url: URL;
  try { url = new URL(value); } catch { return `The ${label} URL is not a valid URL.`; }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)) return null;
    return `The ${label} URL must be served over a secure connection (https), or be a loopback address.`;
  }
  return `The ${label} URL must use https.`;
}

function withQuery(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

export function createAdminHandler(config: Config, db: Db): AdminHandler {
  const admin = config.adminPath;
  const secure = config.siteUrl.startsWith('https:');
  const cookie = (name: string, value: string, o: { path: string; maxAge: number; sameSite: 'Lax' | 'Strict' }) =>
    `${name}=${encodeURIComponent(value)}; Path=${o.path}; Max-Age=${o.maxAge}; HttpOnly; SameSite=${o.sameSite}${secure ? '; Secure' : ''}`;

  function page(status: number, title: string, body: string, extra: Record<string, string> = {}, cookies: string[] = []): Response {
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f0f0f1;color:#1d2327}
main{max-width:32rem;margin:3rem auto;background:#fff;padding:2rem;border:1px solid #c3c4c7}
h1{font-size:1.4rem;margin-top:0}label{display:block;font-weight:600;margin-top:1rem}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;border:1px solid #8c8f94}
button{margin:1.25rem .5rem 0 0;padding:.5rem 1rem;font-size:1rem;cursor:pointer}
.primary{background:#2271b1;color:#fff;border:1px solid #2271b1}.error{border-left:4px solid #d63638;padding:.5rem 1rem;background:#fcf0f1}
.notice{border-left:4px solid #00a32a;padding:.5rem 1rem;background:#edfaef}code{font-size:1.2rem}
:focus-visible{outline:3px solid #2271b1;outline-offset:2px}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
    const headers = new Headers({
      'Content-Type': 'text/html; charset=UTF-8',
      'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      ...extra,
    });
    for (const c of cookies) headers.append('Set-Cookie', c);
    return new Response(html, { status, headers });
  }

  function redirect(location: string, cookies: string[] = []): Response {
    const headers = new Headers({ Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    for (const c of cookies) headers.append('Set-Cookie', c);
    return new Response(null, { status: 302, headers });
  }

  async function currentSession(request: Request): Promise<{ user: SessionUser; token: string } | null> {
    const token = readCookie(request.headers.get('cookie'), SESSION_COOKIE);
    const user = await sessionUser(db, token);
    return user ? { user, token: token! } : null;
  }

  const siteKey = async () => (await siteSettings(db)).siteKey;

  // ------------------------------------------------------------ login / logout

  /** Only paths on this site; anything else goes to the default. */
  const safeRedirect = (value: string | null) => (value && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') ? value : `${admin}/login`);

  function loginPage(status: number, redirectTo: string, csrf: string, message: string | null, login = '', setCsrf = false): Response {
    const body = `<h1>Sign in to ${esc(config.siteUrl)}</h1>
${message ? `<p class="error" role="alert" id="login-error">${esc(message)}</p>` : ''}
<form method="post" action="${esc(`${admin}/login`)}">
<input type="hidden" name="_csrf" value="${esc(csrf)}">
<input type="hidden" name="redirect_to" value="${esc(redirectTo)}">
<label for="user_login">Username or email address</label>
<input type="text" id="user_login" name="log" autocomplete="username" required value="${esc(login)}"${message ? ' aria-describedby="login-error"' : ''} autofocus>
<label for="user_pass">Password</label>
<input type="password" id="user_pass" name="pwd" autocomplete="current-password" required>
<button type="submit" class="primary" id="wp-submit">Sign in</button>
</form>`;
    const cookies = setCsrf ? [cookie(LOGIN_CSRF_COOKIE, csrf, { path: admin, maxAge: 3600, sameSite: 'Strict' })] : [];
    return page(status, 'Sign in', body, {}, cookies);
  }

  async function login(request: Request, url: URL, ip: string | undefined): Promise<Response> {
    const existing = readCookie(request.headers.get('cookie'), LOGIN_CSRF_COOKIE);
    if (request.method !== 'POST') {
      const session = await currentSession(request);
      if (session && !url.searchParams.get('redirect_to')) return signedInPage(session);
      const csrf = existing && /^[\w-]{20,}$/.test(existing) ? existing : randomBytes(18).toString('base64url');
      return loginPage(200, safeRedirect(url.searchParams.get('redirect_to')), csrf, null, '', csrf !== existing);
    }
    const form = new URLSearchParams(await request.text());
    const redirectTo = safeRedirect(form.get('redirect_to'));
    const sent = form.get('_csrf') ?? '';
    if (!existing || !sent || !safeEqual(existing, sent)) {
      const csrf = randomBytes(18).toString('base64url');
      return loginPage(403, redirectTo, csrf, 'Your sign-in form expired. Please try again.', form.get('log') ?? '', true);
    }
    const result = await signIn(db, form.get('log') ?? '', form.get('pwd') ?? '', ip);
    if (!result.ok) {
      if (result.reason === 'locked') {
        const minutes = Math.ceil(result.retryAfterSeconds / 60);
        return loginPage(429, redirectTo, existing, `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, form.get('log') ?? '');
      }
      return loginPage(401, redirectTo, existing, 'The username or password you entered is incorrect.', form.get('log') ?? '');
    }
    const token = await createSession(db, result.user.id);
    return redirect(redirectTo, [
      cookie(SESSION_COOKIE, token, { path: '/', maxAge: SESSION_SECONDS, sameSite: 'Lax' }),
      cookie(LOGIN_CSRF_COOKIE, '', { path: admin, maxAge: 0, sameSite: 'Strict' }),
    ]);
  }

  async function signedInPage(session: { user: SessionUser; token: string }): Promise<Response> {
    const nonce = createNonce(await siteKey(), LOGOUT_ACTION, { userId: session.user.id, token: session.token });
    return page(200, 'Signed in', `<h1>Signed in</h1>
<p>You are signed in as <strong>${esc(session.user.login)}</strong>.</p>
<form method="post" action="${esc(`${admin}/logout`)}"><input type="hidden" name="_wpnonce" value="${esc(nonce)}"><button type="submit">Sign out</button></form>`);
  }

  async function logout(request: Request): Promise<Response> {
    const session = await currentSession(request);
    if (request.method === 'POST' && session) {
      const form = new URLSearchParams(await request.text());
      if (verifyNonce(await siteKey(), form.get('_wpnonce') ?? '', LOGOUT_ACTION, { userId: session.user.id, token: session.token })) {
        await destroySession(db, session.token);
      }
    }
    return redirect(`${admin}/login`, [cookie(SESSION_COOKIE, '', { path: '/', maxAge: 0, sameSite: 'Lax' })]);
  }

  // ------------------------------------------------------------ authorize-application.php

  interface AuthorizeRequest { appName: string; appId: string; successUrl: string; rejectUrl: string }

  function requestErrors(r: AuthorizeRequest): string[] {
    const errors: string[] = [];
    const s = redirectUrlError(r.successUrl, 'success');
    if (s) errors.push(s);
    const j = redirectUrlError(r.rejectUrl, 'reject');
    if (j) errors.push(j);
    if (r.appId && !UUID.test(r.appId)) errors.push('The application ID must be a UUID.');
    return errors;
  }

  function errorPage(errors: string[]): Response {
    return page(400, 'Cannot authorize application', `<h1>Cannot authorize application</h1>
<div class="error" role="alert"><p>The request to connect an application is not valid:</p><ul>${errors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul></div>`);
  }

  async function authorizeForm(status: number, r: AuthorizeRequest, session: { user: SessionUser; token: string }, error: string | null): Promise<Response> {
    const nonce = createNonce(await siteKey(), AUTHORIZE_ACTION, { userId: session.user.id, token: session.token });
    const logoutNonce = createNonce(await siteKey(), LOGOUT_ACTION, { userId: session.user.id, token: session.token });
    const destination = r.successUrl
      ? `<p>You will be sent to <strong>${esc(new URL(r.successUrl).origin)}</strong> with the new password.</p>`
      : '<p>The new password will be shown on the next page, once.</p>';
    const body = `<h1>Authorize application</h1>
${error ? `<p class="error" role="alert" id="authorize-error">${esc(error)}</p>` : ''}
<p>${r.appName ? `Would you like to give the application <strong>${esc(r.appName)}</strong>` : 'Would you like to give this application'} access to your account, <strong>${esc(session.user.login)}</strong>? It will be able to do everything you can do on this site.</p>
<form method="post" action="${esc(`${admin}/authorize-application.php`)}">
<input type="hidden" name="action" value="authorize_application_password">
<input type="hidden" name="_wpnonce" value="${esc(nonce)}">
<input type="hidden" name="app_id" value="${esc(r.appId)}">
<input type="hidden" name="success_url" value="${esc(r.successUrl)}">
<input type="hidden" name="reject_url" value="${esc(r.rejectUrl)}">
<label for="app_name">New application password name</label>
<input type="text" id="app_name" name="app_name" value="${esc(r.appName)}" required${error ? ' aria-describedby="authorize-error"' : ''}>
${destination}
<button type="submit" class="primary" name="approve" value="1" id="approve">Yes, I approve of this connection</button>
<button type="submit" name="reject" value="1" id="reject">No, I do not approve of this connection</button>
</form>
<form method="post" action="${esc(`${admin}/logout`)}"><input type="hidden" name="_wpnonce" value="${esc(logoutNonce)}"><p>Not ${esc(session.user.login)}? <button type="submit">Sign out</button></p></form>`;
    return page(status, 'Authorize application', body);
  }

  async function authorize(request: Request, url: URL): Promise<Response> {
    const post = request.method === 'POST';
    const source = post ? new URLSearchParams(await request.text()) : url.searchParams;
    const r: AuthorizeRequest = {
      appName: (source.get('app_name') ?? '').trim(),
      appId: source.get('app_id') ?? '',
      successUrl: source.get('success_url') ?? '',
      rejectUrl: source.get('reject_url') ?? '',
    };
    const errors = requestErrors(r);
    if (errors.length) return errorPage(errors);

    const session = await currentSession(request);
    if (!session) {
      const back = `${admin}/authorize-application.php?${new URLSearchParams(Object.entries({ app_name: r.appName, app_id: r.appId, success_url: r.successUrl, reject_url: r.rejectUrl }).filter(([, v]) => v))}`;
      return redirect(`${admin}/login?${new URLSearchParams({ redirect_to: back })}`);
    }
    if (!post) return authorizeForm(200, r, session, null);

    if (!verifyNonce(await siteKey(), source.get('_wpnonce') ?? '', AUTHORIZE_ACTION, { userId: session.user.id, token: session.token })) {
      return page(403, 'Link expired', '<h1>Link expired</h1><p class="error" role="alert">The link you followed has expired. Go back and try again.</p>');
    }
    if (source.get('reject') !== null && source.get('approve') === null) {
      const target = r.rejectUrl || r.successUrl;
      if (target) return redirect(withQuery(target, { success: 'false' }));
      return page(200, 'Request rejected', '<h1>Request rejected</h1><p class="notice" role="status">You did not connect the application. No password was made.</p>');
    }
    let issued;
    try {
      issued = await issueApplicationPassword(createContext(db, session.user), session.user.id, { name: r.appName, appId: r.appId });
    } catch (err) {
      if (err instanceof RestError) return authorizeForm(400, r, session, err.message);
      throw err;
    }
    if (r.successUrl) {
      const site = await siteSettings(db);
      return redirect(withQuery(r.successUrl, { site_url: site.url, user_login: session.user.login, password: issued.password! }));
    }
    return page(200, 'Application password created', `<h1>Application password created</h1>
<div class="notice" role="status"><p>Your new password for <strong>${esc(issued.name)}</strong> is:</p>
<p><code id="new-application-password">${esc(issued.password!)}</code></p>
<p>Be sure to save this in a safe location. You will not be able to retrieve it.</p></div>`);
  }

  // ------------------------------------------------------------ admin-ajax.php

  async function ajax(request: Request, url: URL): Promise<Response> {
    const form = request.method === 'POST' ? new URLSearchParams(await request.text()) : new URLSearchParams();
    const action = url.searchParams.get('action') ?? form.get('action');
    const text = (status: number, body: string) => new Response(body, { status, headers: { 'Content-Type': 'text/html; charset=UTF-8', 'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private', 'X-Content-Type-Options': 'nosniff' } });
    if (action !== 'rest-nonce') return text(400, '0');
    // wp_ajax_rest_nonce is registered for signed-in users only; admin-ajax answers others 400 "0".
    const nonce = await restNonceForSession(db, readCookie(request.headers.get('cookie'), SESSION_COOKIE));
    return nonce ? text(200, nonce) : text(400, '0');
  }

  return async (request, ip) => {
    const url = new URL(request.url);
    const path = url.pathname.slice(admin.length);
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'POST') {
      return new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, POST' } });
    }
    switch (path) {
      case '/authorize-application.php': return authorize(request, url);
      case '/login': case '/wp-login.php': return login(request, url, ip);
      case '/logout': return logout(request);
      case '/admin-ajax.php': return ajax(request, url);
      default: return page(404, 'Not found', '<h1>Not found</h1><p>There is nothing at this address.</p>');
    }
  };
}
