// The example client (examples/client/example.ts) against the document a test site serves: the
// types openapi-typescript makes from it, the example compiled with them under `strict` (no
// diagnostic, and no cast, `any` or `@ts-` comment in it), then run over loopback against the site
// and what it printed compared with what the site holds.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, service, type TestSite } from '../helpers/app.js';
import { typesOf } from '../../examples/client/generate-types.js';

const DIR = join(import.meta.dirname, '../../examples/client');
const EXAMPLE = join(DIR, 'example.ts');
const SCHEMA = join(DIR, 'schema.d.ts');

/** Diagnostics of the example compiled with its tsconfig, the generated types given in memory (nothing written). */
function compile(types: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(DIR, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } })!;
  const host = ts.createCompilerHost(config.options);
  const schemaFile = ts.createSourceFile(SCHEMA, types, ts.ScriptTarget.ES2022, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, ...rest) => (name === SCHEMA ? schemaFile : getSourceFile(name, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === SCHEMA || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (name === SCHEMA ? types : readFile(name));
  const program = ts.createProgram({ rootNames: [EXAMPLE, SCHEMA], options: config.options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('the example client', () => {
  let site: TestSite;
  let types: string;

  beforeAll(async () => {
    site = await createTestSite();
    const res = await site.req('GET', '/openapi.json');
    expect(res.status).toBe(200);
    types = await typesOf(res.body);
  });
  afterAll(() => site?.close());

  it('is written without casts, any or @ts- comments', () => {
    const source = readFileSync(EXAMPLE, 'utf8').replace(/^\s*\/\/.*$/gm, '');
    expect(source).not.toMatch(/\bas\s+[A-Za-z{[(]|\bany\b|@ts-|<[A-Za-z]+>\s*\w/);
  });

  it('compiles under strict with the types made from the served document', () => {
    expect(types).toMatch(/PostView: \{/);
    expect(types).toMatch(/PostCreate: \{/);
    expect(compile(types)).toEqual([]);
  });

  it('fails to compile when the document stops promising what it reads', () => {
    // `title.rendered` no longer always sent: the example's read of it must no longer compile.
    const weaker = types.replace(/(PostView: \{[\s\S]*?title: \{[\s\S]*?readonly rendered): string;/, '$1?: string;');
    expect(weaker).not.toBe(types);
    expect(compile(weaker).join('\n')).toMatch(/example\.ts:\d+ .*(undefined|not assignable)/);
  });

  it('lists, creates, uploads and reads every page against a running site', async () => {
    for (const title of ['Client one', 'Client two', 'Client three']) await site.createPost({ title, status: 'publish' });
    const server = service.createHttpServer(site.app);
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const admin = site.users.administrator;
      const child = spawn(process.execPath, ['--import', 'tsx', EXAMPLE], {
        env: { ...process.env, SITE_URL: origin, WP_USER: admin.login, WP_APP_PASSWORD: admin.password },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => { out += c; });
      child.stderr.on('data', (c) => { err += c; });
      const [code] = await once(child, 'exit');
      expect(err).toBe('');
      expect(code).toBe(0);
      const lines = out.trim().split('\n');
      expect(lines).toHaveLength(4);
      expect(lines[0]).toMatch(/^newest: Client three by [^(;][^;]*; embedded: .*\bauthor\b/);

      const created = /^created post (\d+): Written by the typed client$/.exec(lines[1]);
      expect(created).not.toBeNull();
      const post = await site.req('GET', `/core/v2/posts/${created![1]}`);
      expect(post.body.title.rendered).toBe('Written by the typed client');

      const uploaded = /^uploaded image (\d+): (\S+)$/.exec(lines[2]);
      expect(uploaded).not.toBeNull();
      const media = await site.req('GET', `/core/v2/media/${uploaded![1]}`);
      expect(media.body).toMatchObject({ mime_type: 'image/png', source_url: uploaded![2] });

      const all = await site.req('GET', '/core/v2/posts?per_page=100');
      const titles = all.body.map((p: { title: { rendered: string } }) => p.title.rendered);
      expect(titles.length).toBeGreaterThanOrEqual(4);
      expect(lines[3]).toBe(`read ${titles.length} posts on ${Math.ceil(titles.length / 2)} pages: ${titles.join(' | ')}`);
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });
});
