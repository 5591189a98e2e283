// What the browser tests share: Debian's Chromium through playwright-core (skipped with a warning
// where it is missing, but never under CI), loopback servers, and the real node:http server over a
// test site whose address is known only once its socket listens.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { relative } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { createHttpServer } from '../../gateway/server.js';
import { createApp } from '../../gateway/app.js';
import type { TestSite } from './app.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser tests of `file` (its import.meta.filename) run: Chromium is there, or CI requires it. */
export function browserTestsRun(file: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) return true;
  console.warn(`${relative(process.cwd(), file)} skipped: ${CHROMIUM} is missing (apt-get install -y chromium). In CI it must run.`);
  return false;
}

/** Headless Chromium without the network calls a browser makes of its own accord. */
export const launchChromium = (): Promise<Browser> => chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});

export const listen = (server: Server, port = 0) => new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
export const close = (server: Server | undefined) => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

/**
 * The service of `site` behind the production node:http server on a loopback port, its site
 * address being that port's: the socket is opened first and the app's handler attached after.
 * `beforeApp` runs once the address is known and before the app is made (to store it as the site's).
 */
export async function serveSite(site: TestSite, beforeApp?: (base: string) => Promise<void>): Promise<{ server: Server; base: string }> {
  const server = createServer();
  const base = `http://127.0.0.1:${await listen(server)}`;
  await beforeApp?.(base);
  const http = createHttpServer(createApp({ ...site.app.config, siteUrl: base }, site.db));
  for (const listener of http.listeners('request')) server.on('request', listener as (...a: unknown[]) => void);
  return { server, base };
}
