// Command line for scripted administration:
//   npm run cli -- user create <login> <email> --role=<role> [--password=<pw>]
//   npm run cli -- user application-password create <login> <app-name> [--porcelain]
//   npm run cli -- site demo [--posts=N]
//   npm run cli -- site set-url <url>
//   npm run cli -- import wordpress <file.xml> [options]   (docs/import.md)
//   npm run cli -- webhook create <url> --events=<a,b> [--secret=…] | webhook list | webhook delete <id>
//   npm run cli -- help | --help | -h
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { openDb } from '../src/db/client.js';
import { bootstrapSite, setSiteUrl } from '../src/site/bootstrap.js';
import { createApplicationPassword, createUser } from '../src/site/operator.js';
import { RestError } from '../src/errors.js';
import { fillDemoContent } from './demo.js';
import { IMPORT_USAGE, importCommand, prepareImport, type PreparedImport } from './import-wordpress.js';
import { WEBHOOK_USAGE, webhookCommand } from './webhook-command.js';

const USAGE = `usage:
  cli user create <login> <email> [--role=<role>] [--password=<password>] [--display-name=<name>]
  cli user application-password create <login> <app-name> [--app-id=<uuid>] [--porcelain]
  cli site demo [--posts=<n>]   (default 50)
  cli site set-url <url>        (siteurl and home)
  ${IMPORT_USAGE}
  ${WEBHOOK_USAGE}
  cli help | --help | -h`;

/** Asking for help anywhere on the line, or `help` as the command: answered before the database is opened. */
const wantsHelp = (argv: string[]) => argv.some((a) => a === '--help' || a === '-h') || parse(argv).positional[0] === 'help';

const VALUE_FLAGS = new Set(['posts']);

function parse(argv: string[]) {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(argv[i]);
    // `--posts 20` as well as `--posts=20`.
    if (m && m[2] === undefined && VALUE_FLAGS.has(m[1]) && i + 1 < argv.length) flags[m[1]] = argv[++i];
    else if (m) flags[m[1]] = m[2] ?? true;
    else positional.push(argv[i]);
  }
  return { positional, flags };
}

async function main(argv: string[]): Promise<number> {
  // Asked for, the usage is the answer (stdout, success); only a command it cannot run is an error.
  if (wantsHelp(argv)) { console.log(USAGE); return 0; }
  const { positional, flags } = parse(argv);
  // An import's options and file are checked before any database is opened or made.
  let prepared: PreparedImport | undefined;
  if (positional[0] === 'import' && positional[1] === 'wordpress' && positional.length === 3) {
    const ready = await prepareImport(positional[2], flags);
    if (typeof ready === 'number') return ready;
    prepared = ready;
  }
  const config = loadConfig();
  await migrate(config.databaseUrl);
  const db = await openDb(config.databaseUrl);
  try {
    // Creates the site on an empty database; never changes the settings of an existing one.
    const boot = await bootstrapSite(db, { siteUrl: config.siteUrl, adminUser: config.adminUser, adminPassword: config.adminPassword });
    if (boot.admin) {
      // stderr: stdout carries only the command's answer (--porcelain output stays clean).
      console.error(`Site created. Keep these credentials: they are shown only once.\n  administrator: ${boot.admin.login}\n  login password: ${boot.admin.password}\n  application password: ${boot.admin.applicationPassword}`);
    }
    const [noun, verb, ...rest] = positional;
    if (noun === 'user' && verb === 'create' && rest.length === 2) {
      const user = await createUser(db, {
        login: rest[0], email: rest[1],
        role: typeof flags.role === 'string' ? flags.role : undefined,
        password: typeof flags.password === 'string' ? flags.password : undefined,
        displayName: typeof flags['display-name'] === 'string' ? flags['display-name'] : undefined,
      });
      console.log(JSON.stringify(user));
      return 0;
    }
    if (noun === 'user' && verb === 'application-password' && rest[0] === 'create' && rest.length === 3) {
      const [, login, appName] = rest;
      const user = await db.prisma.user.findFirst({ where: { OR: [{ login }, { email: login }] }, select: { id: true } });
      if (!user) { console.error(`error: no user ${login}`); return 1; }
      const created = await createApplicationPassword(db, user.id, appName, typeof flags['app-id'] === 'string' ? flags['app-id'] : '');
      console.log(flags.porcelain ? created.password : JSON.stringify({ uuid: created.uuid, app_id: created.appId, name: created.name, created: created.created, password: created.password }));
      return 0;
    }
    if (noun === 'site' && verb === 'demo' && rest.length === 0) {
      const posts = flags.posts === undefined ? 50 : Number(flags.posts);
      if (!Number.isInteger(posts) || posts < 0 || posts > 100000) { console.error('error: --posts takes a whole number from 0 to 100000'); return 2; }
      const r = await fillDemoContent(db, config, { posts });
      console.log(`Demo content added: ${r.posts} posts (${r.revisions} edited once), ${r.pages} pages, ${r.categories} new categories, ${r.tags} new tags.`);
      return 0;
    }
    if (noun === 'site' && verb === 'set-url' && rest.length === 1) {
      try {
        console.log(await setSiteUrl(db, rest[0]));
      } catch (err) {
        if (err instanceof TypeError) { console.error(`error: ${err.message}`); return 2; }
        throw err;
      }
      return 0;
    }
    if (prepared) return await importCommand({ db, config, file: prepared.file, flags, prepared });
    if (noun === 'webhook') {
      const code = await webhookCommand(db, [verb, ...rest].filter((a) => a !== undefined), flags);
      if (code !== 2) return code;
    }
    console.error(USAGE);
    return 2;
  } catch (err) {
    if (err instanceof RestError) { console.error(`error: ${err.extensions.code}: ${err.message}`); return 1; }
    throw err;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code), (err) => { console.error(err); process.exit(1); });
