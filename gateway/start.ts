// What `npm start` runs (through gateway/main.ts): migrate, create the site on first start, then
// serve with WORKERS processes (default one per core).
// Two lines are plain text on stdout: the one-time credentials of a new site and the
// "listening on …" line (scripts wait for it); everything else goes through the JSON logger.
import perfHooks from 'node:perf_hooks';
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import type { Db } from '../src/db/client.js';
import { loadConfig, providerOf } from '../src/config.js';

const config = loadConfig();
const workers = providerOf(config.databaseUrl) === 'sqlite' && config.databaseUrl.includes(':memory:') ? 1 : config.workers;
// The first worker is forked before this process loads anything more (the log's library, the
// database driver: some 40 ms): a start's first answer waits on that worker, not on the primary.
const firstWorker = cluster.isPrimary && workers > 1 ? fork() : null;
const [{ openDb }, { log }] = await Promise.all([import('../src/db/client.js'), import('../src/log.js')]);

async function primary() {
  // The first worker is forked at once: it loads the service's modules (most of a start) on one
  // core while this process migrates and creates the site on the other; then it says it is
  // 'waiting' and is let go ('serve') once that is done, so no worker opens the database before
  // the migrations are in (opening it while the modules load was slower here, not faster). The
  // others are forked when it listens: started together they would share the cores and the
  // first answer would wait for all of them. A worker that dies is replaced, from the start on.
  let ready = false;
  const waiting = new Set<ReturnType<typeof fork>>();
  if (workers > 1) {
    cluster.on('message', (worker, message) => {
      if (message !== 'waiting') return;
      if (ready) worker.send('serve');
      else waiting.add(worker);
    });
    // A worker whose start fails says why (the message below) and exits 1; the start then fails
    // as a whole, once: forking again would fail the same way, forever.
    // Once the service is up, a replacement that cannot start is retried a second later.
    const failed = new WeakSet<object>();
    cluster.on('message', (worker, message) => {
      if (!isStartFailure(message)) return;
      if (!serving) return failStart(message.startFailed);
      failed.add(worker);
      log.error({ worker: worker.process.pid, reason: message.startFailed }, 'a new worker could not start');
    });
    cluster.on('exit', (worker, code, signal) => {
      waiting.delete(worker);
      if (stopping || (code === 0 && !signal)) return;
      if (!serving) return failStart(`a worker exited (${signal ?? `code ${code}`}) before it could serve`);
      log.error({ worker: worker.process.pid, code, signal }, 'worker exited; starting another');
      if (failed.has(worker)) setTimeout(() => { if (!stopping) fork(); }, 1_000).unref();
      else fork();
    });
    cluster.once('listening', () => { serving = true; for (let i = 1; i < workers; i++) fork(); });
    // The first worker was forked before these listeners (at the top of this module); one that died
    // that soon (a bad NODE_OPTIONS, say) is reported here.
    if (firstWorker?.isDead()) failStart(`a worker exited (code ${firstWorker.process.exitCode}) before it could serve`);
    process.on('SIGTERM', () => stopWorkers());
    process.on('SIGINT', () => stopWorkers());
  }
  // What only the primary does (migrations, the first start's site, leftovers of a killed run):
  // loaded here, so a worker does not load it. A restart with nothing to write (the site exists,
  // its address stays, no media write was in flight) reads that through the plain driver and
  // never opens the ORM here (src/db/start-probe.ts says why).
  const [{ migrate }, { probeStart }, { bootstrapSite, siteNeedsBootstrap, SITE_START_OPTIONS }, { recoverUploads }, { sweepSpool }, { createStorage }] = await Promise.all([
    import('../src/db/migrate.js'), import('../src/db/start-probe.js'), import('../src/site/bootstrap.js'), import('../src/media/recovery.js'), import('./upload.js'),
    import('../src/media/storage.js'),
  ]);
  const applied = await migrate(config.databaseUrl);
  if (applied.length) log.info({ migrations: applied }, 'applied migrations');
  const probe = await probeStart(config.databaseUrl, SITE_START_OPTIONS);
  let db: Db | undefined;
  const opened = async () => (db ??= await openDb(config.databaseUrl));
  const bootOptions = { siteUrl: config.siteUrl, adminUser: config.adminUser, adminPassword: config.adminPassword, followSiteUrl: process.env.SITE_URL ? true : 'loopback' as const };
  const boot = siteNeedsBootstrap(probe.options, bootOptions) ? await bootstrapSite(await opened(), bootOptions) : { created: false };
  // What a killed server left: upload spool files, in a local UPLOADS_DIR temporary files, and
  // in either storage the files of media writes whose record never committed (of any instance
  // whose process is gone). Before any worker serves.
  const spooled = await sweepSpool();
  const storage = createStorage({ siteUrl: config.siteUrl, uploadsDir: config.uploadsDir, s3: config.uploadsS3 });
  const recovered = await recoverUploads(async () => (await opened()).prisma, config.uploadsDir, { storage, uploadIntents: probe.uploadIntents });
  if (spooled + recovered.temporary + recovered.orphans) {
    log.info({ temporary: spooled + recovered.temporary, orphans: recovered.orphans }, 'removed what an interrupted run left (temporary files, files of uploads that never got their record)');
  }
  await (db as Db | undefined)?.close();
  if (boot.admin) {
    const api = `${config.siteUrl}${config.restPrefix}`;
    const auth = `${boot.admin.login}:${boot.admin.applicationPassword}`;
    console.log([
      '',
      'Site created. Keep these credentials: they are shown only once.',
      `  administrator:        ${boot.admin.login}`,
      `  login password:       ${boot.admin.password}${boot.admin.generatedPassword ? ' (generated)' : ''}`,
      `  application password: ${boot.admin.applicationPassword}`,
      '',
      'Try:',
      `  curl ${api}/`,
      `  curl -u '${auth}' -H 'Content-Type: application/json' -d '{"title":"Hello","status":"publish"}' ${api}/core/v2/posts`,
      `  curl ${api}/core/v2/posts`,
      '',
    ].join('\n'));
  }
  if (workers <= 1) return serve((port) => console.log(listening(1, port)));
  ready = true;
  for (const worker of waiting) worker.send('serve');
  waiting.clear();
  let up = 0;
  cluster.on('listening', (_worker, address) => { if (++up === workers) console.log(listening(workers, address.port)); });
}

let stopping = false;
/** Whether a worker has listened: until then a worker that fails means the start failed. */
let serving = false;

interface StartFailure { startFailed: string }
const isStartFailure = (m: unknown): m is StartFailure => typeof (m as StartFailure | null)?.startFailed === 'string';

/** Why a start failed, for a person: the error's message, with what to do where that is known. */
function startFailure(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { port?: number };
  const message = e instanceof Error ? e.message : String(err);
  if (e?.code === 'EADDRINUSE') return `${message}: another program listens on port ${config.port} (set PORT to another port)`;
  if (e?.code === 'EACCES' && e.syscall?.startsWith('listen')) return `${message}: this user may not listen on port ${config.port} (set PORT)`;
  if (e?.code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION/.test(message)) return `${message}\n(a native module was installed for another Node.js version: run npm ci again with this one, ${process.version})`;
  return message;
}

/**
 * Ends a start that cannot succeed: one line on stderr saying why (the JSON log on stdout has the
 * same with its stack), the workers stopped, exit code 1. Several workers failing the same way
 * are reported once.
 */
function failStart(reason: string, err?: unknown): void {
  if (stopping) return;
  log.fatal({ err }, `start-up failed: ${reason}`);
  process.stderr.write(`start-up failed: ${reason}\n`);
  stopWorkers(1, 5_000);
}

/** How long a stopping worker waits for handlers still at work after its connections closed (within the primary's grace). */
const HANDLERS_WAIT_MS = 5_000;

/**
 * The primary's stop (SIGTERM, SIGINT; and a failed start, with exit code 1): each worker is told
 * to stop, finishes what it is answering and exits, then the primary does (at the latest after
 * `graceMs`). A primary that left first would cut its workers off: their server's close goes
 * through it.
 */
function stopWorkers(code = 0, graceMs = 10_000): void {
  if (stopping) return;
  stopping = true;
  const left = () => Object.keys(cluster.workers ?? {}).length;
  cluster.on('exit', () => { if (!left()) process.exit(code); });
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  // With none left, on the next turn: what was just written goes out first.
  if (!left()) setImmediate(() => process.exit(code));
  setTimeout(() => process.exit(code), graceMs).unref();
}

/**
 * A worker. glibc gives each thread that allocates its own malloc arena; after image work (sharp's
 * libvips threads) those arenas keep tens of MB each resident. Two arenas per worker keep a
 * worker's memory after uploads well down at no cost measurable here (MALLOC_ARENA_MAX set in the
 * environment wins; glibc reads it at process start, so it is given to the workers as they fork).
 */
function fork() {
  return cluster.fork({ MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2', ...workerNodeOptions() });
}

/**
 * A worker's V8 heap limit (WORKER_HEAP_MB, default 512; 0 leaves V8's own). V8 sizes its
 * old generation from the limit: with its default (from the machine's memory; 4 GB here) it lets
 * garbage pile up to about three times the live heap before a full collection, and workers whose
 * live heap is under 100 MB sat at 400+ MB; under 512 MB the heap peaked at 1.5–2 times it.
 * It is a ceiling too: a worker over it stops (and is replaced), so it is kept well above what
 * the largest requests need.
 *
 * And its young generation (WORKER_SEMI_SPACE_MB, default 8; 0 leaves V8's own): V8 grows each
 * semi-space up to 64 MB on a machine with this much memory (a new space of 134 MB, whatever the
 * old generation's limit), which a worker under load fills between scavenges. With 8 MB a
 * worker's peak RSS under cold reads fell from 330–340 MB to 210–220 MB with no CPU per request
 * measurably lost (docs/benchmarks.md). Both go through NODE_OPTIONS; a flag already there or on
 * the command line is kept instead.
 */
function workerNodeOptions(): { NODE_OPTIONS?: string } {
  const inherited = process.env.NODE_OPTIONS ?? '';
  const given = (flag: string) => new RegExp(`--${flag.replace(/-/g, '[-_]')}`).test(inherited) || process.execArgv.some((a) => new RegExp(`^--${flag.replace(/-/g, '[-_]')}`).test(a));
  const flags: string[] = [];
  if (config.workerHeapMb && !given('max-old-space-size')) flags.push(`--max-old-space-size=${config.workerHeapMb}`);
  if (config.workerSemiSpaceMb && !given('max-semi-space-size')) flags.push(`--max-semi-space-size=${config.workerSemiSpaceMb}`);
  if (!flags.length) return {};
  return { NODE_OPTIONS: `${inherited} ${flags.join(' ')}`.trim() };
}

/** The start-up line scripts wait for, then where a person goes next. */
function listening(workers: number, port: number): string {
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  return [
    `listening on ${base} with ${workers} worker${workers === 1 ? '' : 's'} (REST at ${config.restPrefix}, GraphQL at /graphql)`,
    `  REST API index:   ${base}${config.restPrefix}/`,
    `  API reference:    ${base}${config.restPrefix}/reference`,
    `  GraphQL:          ${base}/graphql${config.graphiql ? ' (GraphiQL when opened in a browser)' : ''}`,
    `  Site:             ${base}/`,
  ].join('\n');
}

/** The longest a worker's webhooks dispatcher waits for a quiet moment to start. */
const DISPATCH_START_LATEST_MS = 5_000;

/**
 * Runs `load` at the first quarter second in which the event loop was busy less than a fifth of
 * the time (checked every 250 ms), or once `latestMs` have passed. GraphQL's server (yoga and its
 * guards: on Node 20, without the compile cache, about 0.8 s of CPU per worker) is loaded so: a
 * worker started under load serves REST at full speed instead of spending its first second on it;
 * a worker started quietly has it ready a moment later; the first `/graphql` request loads it
 * anyway if that comes first.
 */
function loadWhenQuiet(load: () => unknown, latestMs = Infinity): void {
  const { eventLoopUtilization } = perfHooks.performance;
  let before = eventLoopUtilization();
  const started = performance.now();
  const timer = setInterval(() => {
    const now = eventLoopUtilization();
    const busy = eventLoopUtilization(now, before).utilization;
    before = now;
    if (busy >= 0.2 && performance.now() - started < latestMs) return;
    clearInterval(timer);
    load();
  }, 250);
  timer.unref();
}

async function serve(onListening?: (port: number) => void) {
  // The app (schema, routes, operations) is loaded only by the processes that serve: a cluster
  // primary that only forks stays small and forks sooner.
  const [{ createApp }, { createHttpServer }] = await Promise.all([import('./app.js'), import('./server.js')]);
  if (cluster.isWorker) await primaryDone();
  const db = await openDb(config.databaseUrl);
  const app = createApp(config, db, { deferDispatch: true });
  const server = createHttpServer(app);
  server.keepAliveTimeout = 65_000;
  // A port in use (or not allowed) fails the start, with its reason, instead of an unhandled 'error'.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => { server.off('error', reject); resolve(); });
  });
  const { port } = server.address() as AddressInfo;
  log.info({ host: config.host, port, worker: cluster.isWorker }, 'serving');
  onListening?.(port);
  loadWhenQuiet(() => app.graphql().catch((err) => log.error({ err }, 'the GraphQL server could not be loaded')));
  // The webhooks' dispatcher likewise (its first pass is the process's first Prisma query, which
  // starts Prisma's query compiler), but within DISPATCH_START_LATEST_MS under load too.
  if (config.webhookDispatch) loadWhenQuiet(() => app.webhooks.start(), DISPATCH_START_LATEST_MS);
  const stop = () => {
    if (stopping) return;
    stopping = true;
    log.info('stopping');
    // Without its primary (killed outright) a worker's server cannot close through it: just go.
    const closeAll = () => server.handlersDone(HANDLERS_WAIT_MS).then(() => app.close()).then(() => db.close());
    if (cluster.isWorker && !process.connected) return void closeAll().finally(() => process.exit(0));
    // The connections first, then the handlers of clients that left (a write finishes, a read stops
    // at its next statement), and only then the database.
    server.close(() => closeAll().then(() => process.exit(0)));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** A worker, its modules loaded: asks to serve, and resolves once the primary has migrated and set up the site. */
function primaryDone(): Promise<void> {
  return new Promise((resolve) => {
    const go = (message: unknown) => {
      if (message !== 'serve') return;
      process.off('message', go);
      resolve();
    };
    process.on('message', go);
    // A primary that failed and went meanwhile reports that itself: this worker just goes.
    if (!process.connected) process.exit(0);
    process.send!('waiting', undefined, {}, (err: Error | null) => { if (err) process.exit(0); });
  });
}

(cluster.isPrimary ? primary() : serve()).catch((err) => {
  const reason = startFailure(err);
  if (cluster.isPrimary) return failStart(reason, err);
  // A worker hands its reason to the primary, which prints it once and ends the start.
  if (!process.connected) process.exit(1);
  process.send!({ startFailed: reason } satisfies StartFailure, undefined, {}, () => process.exit(1));
});
