// The ceiling the service is measured against: a bare node:http server, clustered like the
// service, that answers every request with one recorded response (same status, headers and
// bytes, written the same way: writeHead then end). Started by bench/run.ts.
// Env: BARE_PORT, BARE_HOST (127.0.0.1), BARE_WORKERS, BARE_RESPONSE (JSON file from run.ts:
// { status, headers: [name, value, ...], body: base64 }).
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const port = Number(process.env.BARE_PORT ?? 0);
const host = process.env.BARE_HOST ?? '127.0.0.1';
const workers = Math.max(1, Number(process.env.BARE_WORKERS ?? 1));

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  let listening = 0;
  cluster.on('listening', () => { if (++listening === workers) console.log(`bare server listening on http://${host}:${port} with ${workers} workers`); });
  cluster.on('exit', (worker, code) => { if (code !== 0) console.error(`bare worker ${worker.process.pid} exited (${code})`); });
} else {
  const recorded = JSON.parse(readFileSync(process.env.BARE_RESPONSE!, 'utf8')) as { status: number; headers: string[]; body: string };
  const body = Buffer.from(recorded.body, 'base64');
  const server = createServer((_req, res) => {
    res.writeHead(recorded.status, recorded.headers);
    res.end(body);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, host, () => { if (cluster.isPrimary) console.log(`bare server listening on http://${host}:${port}`); });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
