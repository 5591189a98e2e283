// Small HTTP helpers shared by the reliability run and its load process (node:http, no client library).
import { request, type Agent } from 'node:http';
import type { Readable } from 'node:stream';

export interface Reply { status: number; headers: Record<string, string | string[] | undefined>; body: string }

export interface SendOptions {
  body?: string | Buffer | Readable;
  headers?: Record<string, string>;
  /** A keep-alive agent; without one every request opens a fresh connection. */
  agent?: Agent;
  timeoutMs?: number;
}

export function send(base: string, method: string, path: string, o: SendOptions = {}): Promise<Reply> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: o.headers ?? {}, agent: o.agent ?? false, timeout: o.timeoutMs ?? 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    const body = o.body;
    if (body && typeof body === 'object' && 'pipe' in body) {
      body.on('error', (err) => req.destroy(err));
      body.pipe(req);
    } else {
      req.end(body);
    }
  });
}

export function json<T = any>(reply: Reply): T {
  try { return JSON.parse(reply.body) as T; } catch { throw new Error(`not JSON (HTTP ${reply.status}): ${reply.body.slice(0, 200)}`); }
}

export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The q-th quantile (0..1) of sorted numbers. */
export function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
