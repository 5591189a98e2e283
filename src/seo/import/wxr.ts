// Reads a WordPress export (WXR: RSS 2.0 with the wp: namespace) into plain records. The XML is
// read by fast-xml-parser; nothing here looks at the text with patterns.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface WxrAuthor { login: string; email: string; displayName: string; firstName: string; lastName: string }
export interface WxrTerm { taxonomy: 'category' | 'post_tag'; slug: string; name: string; description: string; parentSlug: string }
export interface WxrItem {
  sourceId: string;
  guid: string;
  type: string;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  status: string;
  /** Site-local `YYYY-MM-DD HH:MM:SS`, or '' when the export has none. */
  date: string;
  author: string;
  parentSourceId: string;
  menuOrder: number;
  commentStatus: string;
  pingStatus: string;
  password: string;
  sticky: boolean;
  categories: string[];
  tags: string[];
}
export interface WxrDocument { authors: WxrAuthor[]; terms: WxrTerm[]; items: WxrItem[] }

export class WxrError extends Error {}

const LISTS = new Set(['item', 'wp:author', 'wp:category', 'wp:tag', 'category', 'wp:postmeta', 'wp:term']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  isArray: (name) => LISTS.has(name),
});

type Node = Record<string, unknown>;

/** The text of an element (CDATA and text joined), '' when absent. */
function text(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') return String(node);
  if (Array.isArray(node)) return text(node[0]);
  if (typeof node === 'object') return text((node as Node)['#text']);
  return '';
}

const trimmed = (node: unknown) => text(node).trim();

export function parseWxr(xml: string): WxrDocument {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new WxrError(`The file is not well-formed XML (line ${valid.err.line}: ${valid.err.msg}).`);
  const doc = parser.parse(xml) as Node;
  const channel = (doc.rss as Node | undefined)?.channel as Node | undefined;
  if (!channel || typeof channel !== 'object') throw new WxrError('The file is not a WordPress export: no rss/channel element.');
  if (!trimmed(channel['wp:wxr_version'])) throw new WxrError('The file is not a WordPress export: no wp:wxr_version element.');

  const authors = ((channel['wp:author'] ?? []) as Node[]).map((a) => ({
    login: trimmed(a['wp:author_login']),
    email: trimmed(a['wp:author_email']),
    displayName: trimmed(a['wp:author_display_name']),
    firstName: trimmed(a['wp:author_first_name']),
    lastName: trimmed(a['wp:author_last_name']),
  })).filter((a) => a.login);

  const terms: WxrTerm[] = [];
  for (const c of (channel['wp:category'] ?? []) as Node[]) {
    terms.push({ taxonomy: 'category', slug: trimmed(c['wp:category_nicename']), name: trimmed(c['wp:cat_name']), description: trimmed(c['wp:category_description']), parentSlug: trimmed(c['wp:category_parent']) });
  }
  for (const t of (channel['wp:tag'] ?? []) as Node[]) {
    terms.push({ taxonomy: 'post_tag', slug: trimmed(t['wp:tag_slug']), name: trimmed(t['wp:tag_name']), description: trimmed(t['wp:tag_description']), parentSlug: '' });
  }

  const items: WxrItem[] = ((channel.item ?? []) as Node[]).map((it) => {
    const cats = (it.category ?? []) as (Node | string)[];
    const byDomain = (domain: string) => cats
      .filter((c): c is Node => typeof c === 'object' && c['@domain'] === domain)
      .map((c) => String(c['@nicename'] ?? '').trim()).filter(Boolean);
    const date = trimmed(it['wp:post_date']);
    return {
      sourceId: trimmed(it['wp:post_id']),
      guid: trimmed(it.guid),
      type: trimmed(it['wp:post_type']) || 'post',
      title: text(it.title),
      content: text(it['content:encoded']),
      excerpt: text(it['excerpt:encoded']),
      slug: trimmed(it['wp:post_name']),
      status: trimmed(it['wp:status']) || 'publish',
      date: date.startsWith('0000') ? '' : date,
      author: trimmed(it['dc:creator']),
      parentSourceId: trimmed(it['wp:post_parent']),
      menuOrder: Number(trimmed(it['wp:menu_order'])) || 0,
      commentStatus: trimmed(it['wp:comment_status']),
      pingStatus: trimmed(it['wp:ping_status']),
      password: text(it['wp:post_password']),
      sticky: trimmed(it['wp:is_sticky']) === '1',
      categories: byDomain('category'),
      tags: byDomain('post_tag'),
    };
  });
  return { authors, terms: orderParentsFirst(terms, (t) => `${t.taxonomy}:${t.slug}`, (t) => (t.parentSlug ? `${t.taxonomy}:${t.parentSlug}` : '')), items: orderParentsFirst(items, (i) => i.sourceId, (i) => (i.parentSourceId !== '0' ? i.parentSourceId : '')) };
}

/** A stable order in which every record whose parent is in the list comes after that parent (cycles: as found). */
function orderParentsFirst<T>(list: T[], key: (t: T) => string, parent: (t: T) => string): T[] {
  const byKey = new Map(list.map((t) => [key(t), t]));
  const out: T[] = [];
  const placed = new Set<T>();
  const visiting = new Set<T>();
  const place = (t: T) => {
    if (placed.has(t) || visiting.has(t)) return;
    visiting.add(t);
    const p = byKey.get(parent(t));
    if (p && p !== t) place(p);
    visiting.delete(t);
    placed.add(t);
    out.push(t);
  };
  list.forEach(place);
  return out;
}
