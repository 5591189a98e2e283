// Summarises a .cpuprofile (V8's format, from `node --cpu-prof` or bench/profile-reads.ts):
// the top functions by self time and by inclusive time, and self time grouped by layer.
//
//   npx tsx bench/cpuprofile-summary.ts <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

interface Frame { functionName: string; url: string; lineNumber: number }
interface Node { id: number; callFrame: Frame; children?: number[]; hitCount?: number }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

const file = process.argv[2];
if (!file) throw new Error('usage: cpuprofile-summary.ts <file.cpuprofile> [top]');
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

/** Which part of the stack a frame belongs to, from its script's path. */
export function layerOf(url: string, name: string): string {
  if (!url) return name === '(garbage collector)' ? 'GC' : name === '(idle)' || name === '(program)' ? name : 'native/V8';
  const rules: [RegExp, string][] = [
    [/node_modules\/\.prisma|src\/generated|@prisma\/client/, 'Prisma client runtime'],
    [/@prisma\/adapter|better-sqlite3|node_modules\/pg/, 'database driver + adapter'],
    [/@prisma/, 'Prisma other'],
    [/@pothos/, 'Pothos'],
    [/node_modules\/graphql\//, 'graphql-js'],
    [/graphql-yoga|@graphql-yoga|@envelop|@whatwg-node/, 'yoga/envelop'],
    [/node_modules\/(@wordpress|htmlparser2|sanitize-html|entities|domhandler)/, 'rendering libraries'],
    [/node_modules/, 'other libraries'],
    [/\/src\/content\//, 'src/content (rendering)'],
    [/\/src\/schema\//, 'src/schema (resolvers)'],
    [/\/src\/auth\//, 'src/auth'],
    [/\/src\//, 'src (other)'],
    [/\/gateway\/(routes|shape|resources|validate)/, 'gateway routes/shape/validate'],
    [/\/gateway\//, 'gateway (dispatch, cache, app)'],
    [/^node:/, 'node core'],
  ];
  for (const [re, layer] of rules) if (re.test(url)) return layer;
  return 'other';
}

const byId = new Map<number, Node>();
const parent = new Map<number, number>();
for (const node of profile.nodes) {
  byId.set(node.id, node);
  for (const c of node.children ?? []) parent.set(c, node.id);
}
const self = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));

const key = (f: Frame) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|gateway|src|bench)\//, '$1/')}:${f.lineNumber + 1}`;
const selfBy = new Map<string, number>();
const inclBy = new Map<string, number>();
const layerSelf = new Map<string, number>();
let total = 0;
for (const [id, us] of self) {
  const node = byId.get(id)!;
  total += us;
  const k = key(node.callFrame);
  selfBy.set(k, (selfBy.get(k) ?? 0) + us);
  const layer = layerOf(node.callFrame.url, node.callFrame.functionName);
  layerSelf.set(layer, (layerSelf.get(layer) ?? 0) + us);
  // Inclusive: count once per distinct function on the stack (recursion is not double-counted).
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const ck = key(byId.get(cur)!.callFrame);
    if (seen.has(ck)) continue;
    seen.add(ck);
    inclBy.set(ck, (inclBy.get(ck) ?? 0) + us);
  }
}

const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const list = (title: string, m: Map<string, number>, n: number) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`  ${pct(us)}  ${k}`);
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
list('self time by layer', layerSelf, 30);
list(`top ${top} by self time`, selfBy, top);
list(`top ${top} by inclusive time`, inclBy, top);
