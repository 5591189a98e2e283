// `npm run cli -- import wordpress <file.xml> [options]`: the full import of a WordPress export
// (src/import/wordpress/service.ts) as the site's first administrator, with a progress bar on a
// terminal (plain lines otherwise) and a summary: counts per kind, and every item skipped with
// its reason. Exit code 0 when the file was read (items skipped for a reason included), 1 when it
// is not a WordPress export or cannot be read, 2 for a wrong command line.
import { readFile } from 'node:fs/promises';
import { SingleBar, Presets } from 'cli-progress';
import type { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/client.js';
import { createContext, type MediaServices } from '../src/context.js';
import { servicesOf } from '../src/services.js';
import { createStorage } from '../src/media/storage.js';
import { siteSettings } from '../src/site/options.js';
import { importWordPress, type ImportSummary, type Phase, type WordPressImportOptions } from '../src/import/wordpress/service.js';
import { parseWxrDocument, WxrError, type WxrDocument } from '../src/import/wxr/parse.js';

type Config = ReturnType<typeof loadConfig>;

export const IMPORT_USAGE = `cli import wordpress <file.xml> [--allow-host=<host>[,<host>…]] [--base-url-map=<from>=<to>[,…]]
        [--author-map=<export login>=<site login>[,…]] [--skip-media] [--dry-run] [--max-media-bytes=<n>]`;

export interface ImportCommand {
  db: Db;
  config: Config;
  file: string;
  flags: Record<string, string | true>;
  /** The options and the parsed file, when the caller has checked them already (prepareImport). */
  prepared?: PreparedImport;
  /** The media library's storage (default: the configured one, its URLs under SITE_URL or the site's address). */
  media?: MediaServices;
  out?: NodeJS.WritableStream & { isTTY?: boolean };
  err?: NodeJS.WritableStream & { isTTY?: boolean };
}

const KNOWN_FLAGS = new Set(['allow-host', 'base-url-map', 'author-map', 'skip-media', 'dry-run', 'max-media-bytes']);

const listFlag = (v: string | true | undefined): string[] => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

/** `a=b` pairs; for URLs the split is at the `=` that starts the second URL. */
function pairs(v: string | true | undefined, urls: boolean): [string, string][] | null {
  const out: [string, string][] = [];
  for (const entry of listFlag(v)) {
    const at = urls ? entry.search(/=(?=https?:\/\/)/) : entry.indexOf('=');
    if (at <= 0) return null;
    const from = entry.slice(0, at).replace(/\/+$/, '');
    const to = entry.slice(at + 1).replace(/\/+$/, '');
    if (!from || !to) return null;
    out.push([from, to]);
  }
  return out;
}

const PHASE_LABEL: Record<Phase, string> = {
  authors: 'authors', terms: 'terms', attachments: 'attachments', items: 'posts and pages', links: 'links', 'menu items': 'menu items', comments: 'comments',
};

/** The command line checked and the file read and parsed, before any database is opened. */
export interface PreparedImport {
  file: string;
  doc: WxrDocument;
  options: Omit<WordPressImportOptions, 'progress'>;
}

const writer = (s?: NodeJS.WritableStream) => s ?? process.stderr;

/** Checks the options and reads the export; an exit code (the message written to `err`) when it cannot go on. */
export async function prepareImport(file: string, flags: Record<string, string | true>, errStream?: NodeJS.WritableStream): Promise<PreparedImport | number> {
  const fail = (code: number, s: string) => { writer(errStream).write(`error: ${s}\n`); return code; };
  for (const name of Object.keys(flags)) if (!KNOWN_FLAGS.has(name)) return fail(2, `unknown option --${name}\n${IMPORT_USAGE}`);
  const baseUrlMap = pairs(flags['base-url-map'], true);
  if (!baseUrlMap) return fail(2, '--base-url-map takes <from URL>=<to URL> pairs, separated by commas');
  const authorPairs = pairs(flags['author-map'], false);
  if (!authorPairs) return fail(2, '--author-map takes <export login>=<site login> pairs, separated by commas');
  const maxBytes = flags['max-media-bytes'] === undefined ? undefined : Number(flags['max-media-bytes']);
  if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)) return fail(2, '--max-media-bytes takes a positive whole number');
  let xml: string;
  try { xml = await readFile(file, 'utf8'); } catch (e) {
    return fail(1, `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let doc: WxrDocument;
  try { doc = parseWxrDocument(xml); } catch (e) {
    if (e instanceof WxrError) return fail(1, `${file} is not a WordPress export: ${e.message}`);
    throw e;
  }
  return {
    file, doc,
    options: {
      dryRun: flags['dry-run'] === true, skipMedia: flags['skip-media'] === true, allowHosts: listFlag(flags['allow-host']), baseUrlMap,
      authorMap: Object.fromEntries(authorPairs), ...(maxBytes ? { maxMediaBytes: maxBytes } : {}),
    },
  };
}

/** Runs the command; returns the exit code. */
export async function importCommand(c: ImportCommand): Promise<number> {
  const out = c.out ?? process.stdout;
  const err = c.err ?? process.stderr;
  const say = (s: string) => out.write(`${s}\n`);
  const fail = (code: number, s: string) => { err.write(`error: ${s}\n`); return code; };
  const prepared = c.prepared ?? await prepareImport(c.file, c.flags, err);
  if (typeof prepared === 'number') return prepared;

  const admin = await c.db.prisma.user.findFirst({ where: { role: 'administrator' }, orderBy: { id: 'asc' }, select: { id: true, login: true } });
  if (!admin) return fail(1, 'the site has no administrator to import as');
  servicesOf(c.db);
  const media = c.media ?? {
    storage: createStorage({ siteUrl: process.env.SITE_URL?.replace(/\/+$/, '') || (await siteSettings(c.db)).home, uploadsDir: c.config.uploadsDir, s3: c.config.uploadsS3 }),
    maxUploadBytes: c.config.uploadMaxBytes,
  };
  const ctx = createContext(c.db, { id: admin.id, login: admin.login, role: 'administrator' }, media);

  // A bar on a terminal; elsewhere a line when a phase starts and when it ends.
  const tty = !!err.isTTY;
  let bar: SingleBar | null = null;
  let phase: Phase | null = null;
  const progress = (p: { phase: Phase; done: number; total: number }) => {
    if (p.phase !== phase) {
      bar?.stop();
      bar = null;
      phase = p.phase;
      if (tty) {
        bar = new SingleBar({ format: `${PHASE_LABEL[p.phase].padEnd(16)} [{bar}] {value}/{total}`, stream: err as NodeJS.WriteStream }, Presets.shades_classic);
        bar.start(p.total, 0);
      } else {
        err.write(`${PHASE_LABEL[p.phase]}: ${p.total} to go through\n`);
      }
    }
    bar?.update(p.done);
    if (!tty && p.done === p.total) err.write(`${PHASE_LABEL[p.phase]}: done\n`);
  };

  let summary: ImportSummary;
  const started = performance.now();
  try {
    summary = await importWordPress(ctx, prepared.doc, { ...prepared.options, progress });
  } finally {
    (bar as SingleBar | null)?.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  for (const line of formatSummary(summary, seconds)) say(line);
  return 0;
}

/** The summary as printed: a line per kind, then every skipped item with its reason. */
export function formatSummary(s: ImportSummary, seconds: number): string[] {
  const lines = [`${s.dryRun ? 'Dry run (nothing written)' : 'Imported'} from ${s.source} in ${seconds.toFixed(1)} s:`];
  const verb = s.dryRun ? 'would import' : 'imported';
  for (const [kind, c] of Object.entries(s.counts)) {
    lines.push(`  ${kind}: ${verb} ${c.imported}, matched existing ${c.matched}, skipped: already imported ${c.already}, skipped ${c.skipped}`);
  }
  if (s.relinked) lines.push(`  updated after the fact (links, attachment parents): ${s.relinked}`);
  if (s.skipped.length) {
    lines.push(`Skipped (${s.skipped.length}):`);
    for (const k of s.skipped) lines.push(`  ${k.kind} ${k.id} ${k.label}: ${k.reason}`);
  }
  return lines;
}
