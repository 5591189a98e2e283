// `npm start`: migrate, create the site on first start, then serve with WORKERS processes (default one per core).
import cluster from 'node:cluster';
import { loadConfig, providerOf } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { openDb } from '../src/db/client.js';
import { bootstrapSite } from '../src/site/bootstrap.js';
import { recoverUploads } from '../src/media/recovery.js';
import { sweepSpool } from './upload.js';
import { createApp } from './app.js';
import { createHttpServer } from './server.js';

const config = loadConfig();

async function primary() {
  const applied = await migrate(config.databaseUrl);
  if (applied.length) console.log(`applied migrations: ${applied.join(', ')}`);
  const db = await openDb(config.databaseUrl);
  const boot = await bootstrapSite(db, { siteUrl: config.siteUrl, adminUser: config.adminUser, adminPassword: config.adminPassword, followSiteUrl: true });
  // What a killed server left: upload spool files, and in a local UPLOADS_DIR temporary files
  // and the files of media writes whose record never committed. Before any worker serves.
  const spooled = await sweepSpool();
  const recovered = config.uploadsS3 ? { temporary: 0, orphans: 0 } : await recoverUploads(db.prisma, config.uploadsDir);
  if (spooled + recovered.temporary + recovered.orphans) {
    console.log(`removed what an interrupted run left: ${spooled + recovered.temporary} temporary files, ${recovered.orphans} files of uploads that never got their record`);
  }
  await db.close();
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
  const workers = providerOf(config.databaseUrl) === 'sqlite' && config.databaseUrl.includes(':memory:') ? 1 : config.workers;
  if (workers <= 1) return serve(() => console.log(listening(1)));
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code) => {
    if (code !== 0) { console.error(`worker ${worker.process.pid} exited (${code}); starting another`); cluster.fork(); }
  });
  let up = 0;
  cluster.on('listening', () => { if (++up === workers) console.log(listening(workers)); });
}

function listening(workers: number): string {
  return `listening on http://${config.host}:${config.port} with ${workers} worker${workers === 1 ? '' : 's'} (REST at ${config.restPrefix}, GraphQL at /graphql)`;
}

async function serve(onListening?: () => void) {
  const db = await openDb(config.databaseUrl);
  const app = createApp(config, db);
  const server = createHttpServer(app);
  server.keepAliveTimeout = 65_000;
  server.listen(config.port, config.host, onListening);
  const stop = () => server.close(() => db.close().then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

(cluster.isPrimary ? primary() : serve()).catch((err) => {
  console.error(err);
  process.exit(1);
});
