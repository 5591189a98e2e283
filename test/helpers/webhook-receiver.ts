// A webhook receiver on a loopback port, for the webhook tests: it verifies each delivery's
// signature with the standardwebhooks library (the secret set once the webhook exists), records
// it, and answers with the status `answer` gives (200 unless told otherwise).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  /** Whether the signature verified with the secret. */
  verified: boolean;
  body: { type: string; timestamp: string; data: Record<string, any> };
  /** The status answered. */
  answered: number;
}

export interface Receiver {
  url: string;
  /** host:port, for the allow-list. */
  host: string;
  received: Received[];
  secret: string;
  /** The status for the n-th request (0-based) and its message id. */
  answer: (n: number, id: string) => number;
  /** Resolves once `done` holds of what was received (checked after each request and at once). */
  until(done: (r: Received[]) => boolean, what?: string): Promise<void>;
  /** The message ids received, each once. */
  unique(): Map<string, Received>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const waiters: { done: (r: Received[]) => boolean; resolve: () => void }[] = [];
  const r: Receiver = {
    url: '', host: '', received: [], secret: '', answer: () => 200,
    until(done) {
      if (done(r.received)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ done, resolve }));
    },
    unique() {
      const out = new Map<string, Received>();
      for (const x of r.received) if (!out.has(x.id)) out.set(x.id, x);
      return out;
    },
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const headers = { 'webhook-id': String(req.headers['webhook-id'] ?? ''), 'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''), 'webhook-signature': String(req.headers['webhook-signature'] ?? '') };
      let verified = false;
      try { new Webhook(r.secret).verify(text, headers); verified = true; } catch { /* recorded as unverified */ }
      let body: Received['body'];
      try { body = JSON.parse(text) as Received['body']; } catch { body = { type: '', timestamp: '', data: {} }; }
      const answered = r.answer(r.received.length, headers['webhook-id']);
      r.received.push({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], verified, body, answered });
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'try again');
      for (const w of [...waiters]) if (w.done(r.received)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  const { port } = server.address() as AddressInfo;
  r.host = `127.0.0.1:${port}`;
  r.url = `http://127.0.0.1:${port}/hook`;
  return r;
}
