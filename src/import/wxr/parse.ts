// Reads a WordPress export (WXR 1.0–1.2: RSS 2.0 with the wp: namespace) into plain records:
// the site it came from, authors, terms of every taxonomy, and items of every type with their
// terms, post meta and comments. The XML is read by fast-xml-parser; nothing here looks at the
// text with patterns. Used by the operator's full import (src/import/wordpress) and by seo/v1's
// chunked import (src/seo/import).
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface WxrAuthor {
  /** wp:author_id (WXR 1.1+), '' in older files. */
  id: string;
  login: string;
  email: string;
  displayName: string;
  firstName: string;
  lastName: string;
}

export interface WxrTerm {
  /** wp:term_id, '' when the file has none. */
  id: string;
  taxonomy: string;
  slug: string;
  name: string;
  description: string;
  /** The parent's slug ('' at the top). */
  parentSlug: string;
}

export interface WxrMeta { key: string; value: string }

export interface WxrComment {
  id: string;
  author: string;
  authorEmail: string;
  authorUrl: string;
  authorIp: string;
  /** Site-local and GMT `YYYY-MM-DD HH:MM:SS` ('' when zero). */
  date: string;
  dateGmt: string;
  content: string;
  /** wp:comment_approved as written: 1, 0, spam, trash, post-trashed. */
  approved: string;
  type: string;
  parentId: string;
  userId: string;
  karma: number;
  meta: WxrMeta[];
}

/** A term an item is filed under: `<category domain="…" nicename="…">`. */
export interface WxrItemTerm { taxonomy: string; slug: string; name: string }

export interface WxrItem {
  sourceId: string;
  guid: string;
  /** The item's permalink on the exporting site. */
  link: string;
  type: string;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  status: string;
  /** Site-local `YYYY-MM-DD HH:MM:SS`, or '' when the export has none (or zeros). */
  date: string;
  /** GMT, '' for zeros (drafts whose date floats). */
  dateGmt: string;
  /** dc:creator: the author's login. */
  author: string;
  parentSourceId: string;
  menuOrder: number;
  commentStatus: string;
  pingStatus: string;
  password: string;
  sticky: boolean;
  terms: WxrItemTerm[];
  /** Slugs of the categories and tags, for readers that need only those. */
  categories: string[];
  tags: string[];
  meta: WxrMeta[];
  /** wp:attachment_url of an attachment ('' otherwise). */
  attachmentUrl: string;
  comments: WxrComment[];
}

export interface WxrDocument {
  version: string;
  title: string;
  /** wp:base_site_url and wp:base_blog_url, without a trailing slash. */
  baseSiteUrl: string;
  baseBlogUrl: string;
  authors: WxrAuthor[];
  /** Every term once (categories, tags, wp:term entries; repeats dropped), parents before children. */
  terms: WxrTerm[];
  items: WxrItem[];
}

export class WxrError extends Error {}

const LISTS = new Set(['item', 'wp:author', 'wp:category', 'wp:tag', 'category', 'wp:postmeta', 'wp:term', 'wp:comment', 'wp:commentmeta', 'wp:termmeta']);

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
  if (Array.isArray(node)) return node.map(text).join('');
  if (typeof node === 'object') return text((node as Node)['#text']);
  return '';
}

const trimmed = (node: unknown) => text(node).trim();
const list = (node: unknown): Node[] => (Array.isArray(node) ? node : node ? [node] : []).filter((n): n is Node => typeof n === 'object' && n !== null);
const noZeroDate = (d: string) => (d.startsWith('0000') ? '' : d);
const noSlash = (u: string) => u.replace(/\/+$/, '');

function metaOf(nodes: unknown): WxrMeta[] {
  return list(nodes).map((m) => ({ key: trimmed(m['wp:meta_key']), value: text(m['wp:meta_value']) })).filter((m) => m.key);
}

/** Parses a WXR file; throws WxrError when it is not well-formed XML or not a WordPress export. */
export function parseWxrDocument(xml: string): WxrDocument {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new WxrError(`The file is not well-formed XML (line ${valid.err.line}: ${valid.err.msg}).`);
  const doc = parser.parse(xml) as Node;
  const channel = (doc.rss as Node | undefined)?.channel as Node | undefined;
  if (!channel || typeof channel !== 'object') throw new WxrError('The file is not a WordPress export: no rss/channel element.');
  const version = trimmed(channel['wp:wxr_version']);
  if (!version) throw new WxrError('The file is not a WordPress export: no wp:wxr_version element.');
  if (!/^1\.[0-2]$/.test(version)) throw new WxrError(`The file is a WXR ${version} export; versions 1.0 to 1.2 are read.`);

  const authors = list(channel['wp:author']).map((a) => ({
    id: trimmed(a['wp:author_id']),
    login: trimmed(a['wp:author_login']),
    email: trimmed(a['wp:author_email']),
    displayName: trimmed(a['wp:author_display_name']),
    firstName: trimmed(a['wp:author_first_name']),
    lastName: trimmed(a['wp:author_last_name']),
  })).filter((a) => a.login);

  const terms: WxrTerm[] = [];
  const seen = new Set<string>();
  const addTerm = (t: WxrTerm) => {
    if (!t.slug && !t.name) return;
    const key = `${t.taxonomy}\u0000${t.slug}`;
    if (seen.has(key)) return; // WordPress 6.1+ repeats categories and tags in the wp:term list
    seen.add(key);
    terms.push(t);
  };
  for (const c of list(channel['wp:category'])) {
    addTerm({ id: trimmed(c['wp:term_id']), taxonomy: 'category', slug: trimmed(c['wp:category_nicename']), name: trimmed(c['wp:cat_name']), description: trimmed(c['wp:category_description']), parentSlug: trimmed(c['wp:category_parent']) });
  }
  for (const t of list(channel['wp:tag'])) {
    addTerm({ id: trimmed(t['wp:term_id']), taxonomy: 'post_tag', slug: trimmed(t['wp:tag_slug']), name: trimmed(t['wp:tag_name']), description: trimmed(t['wp:tag_description']), parentSlug: '' });
  }
  for (const t of list(channel['wp:term'])) {
    addTerm({ id: trimmed(t['wp:term_id']), taxonomy: trimmed(t['wp:term_taxonomy']), slug: trimmed(t['wp:term_slug']), name: trimmed(t['wp:term_name']), description: trimmed(t['wp:term_description']), parentSlug: trimmed(t['wp:term_parent']) });
  }

  const items: WxrItem[] = list(channel.item).map((it) => {
    const itemTerms: WxrItemTerm[] = list(it.category)
      .map((c) => ({ taxonomy: String(c['@domain'] ?? '').trim(), slug: String(c['@nicename'] ?? '').trim(), name: trimmed(c) }))
      .filter((t) => t.taxonomy && t.slug);
    const comments: WxrComment[] = list(it['wp:comment']).map((c) => ({
      id: trimmed(c['wp:comment_id']),
      author: trimmed(c['wp:comment_author']),
      authorEmail: trimmed(c['wp:comment_author_email']),
      authorUrl: trimmed(c['wp:comment_author_url']),
      authorIp: trimmed(c['wp:comment_author_IP']),
      date: noZeroDate(trimmed(c['wp:comment_date'])),
      dateGmt: noZeroDate(trimmed(c['wp:comment_date_gmt'])),
      content: text(c['wp:comment_content']),
      approved: trimmed(c['wp:comment_approved']) || '1',
      type: trimmed(c['wp:comment_type']) || 'comment',
      parentId: trimmed(c['wp:comment_parent']) || '0',
      userId: trimmed(c['wp:comment_user_id']) || '0',
      karma: Number(trimmed(c['wp:comment_karma'])) || 0,
      meta: metaOf(c['wp:commentmeta']),
    }));
    return {
      sourceId: trimmed(it['wp:post_id']),
      guid: trimmed(it.guid),
      link: trimmed(it.link),
      type: trimmed(it['wp:post_type']) || 'post',
      title: text(it.title),
      content: text(it['content:encoded']),
      excerpt: text(it['excerpt:encoded']),
      slug: trimmed(it['wp:post_name']),
      status: trimmed(it['wp:status']) || 'publish',
      date: noZeroDate(trimmed(it['wp:post_date'])),
      dateGmt: noZeroDate(trimmed(it['wp:post_date_gmt'])),
      author: trimmed(it['dc:creator']),
      parentSourceId: trimmed(it['wp:post_parent']) || '0',
      menuOrder: Number(trimmed(it['wp:menu_order'])) || 0,
      commentStatus: trimmed(it['wp:comment_status']),
      pingStatus: trimmed(it['wp:ping_status']),
      password: text(it['wp:post_password']),
      sticky: trimmed(it['wp:is_sticky']) === '1',
      terms: itemTerms,
      categories: itemTerms.filter((t) => t.taxonomy === 'category').map((t) => t.slug),
      tags: itemTerms.filter((t) => t.taxonomy === 'post_tag').map((t) => t.slug),
      meta: metaOf(it['wp:postmeta']),
      attachmentUrl: trimmed(it['wp:attachment_url']),
      comments,
    };
  }).filter((i) => i.sourceId);

  return {
    version,
    title: trimmed(channel.title),
    baseSiteUrl: noSlash(trimmed(channel['wp:base_site_url']) || trimmed(channel.link)),
    baseBlogUrl: noSlash(trimmed(channel['wp:base_blog_url']) || trimmed(channel['wp:base_site_url']) || trimmed(channel.link)),
    authors,
    terms: orderParentsFirst(terms, (t) => `${t.taxonomy}:${t.slug}`, (t) => (t.parentSlug ? `${t.taxonomy}:${t.parentSlug}` : '')),
    items,
  };
}

/** A stable order in which every record whose parent is in the list comes after that parent (cycles: as found). */
export function orderParentsFirst<T>(records: T[], key: (t: T) => string, parent: (t: T) => string): T[] {
  const byKey = new Map(records.map((t) => [key(t), t]));
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
  records.forEach(place);
  return out;
}
