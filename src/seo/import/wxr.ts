// seo/v1's view of a WordPress export: authors, categories and tags, and posts and pages, read
// by the shared WXR reader (src/import/wxr/parse.ts) and cut down to what its chunked import uses.
import { orderParentsFirst, parseWxrDocument, WxrError } from '../../import/wxr/parse.js';

export { WxrError };

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

export function parseWxr(xml: string): WxrDocument {
  const doc = parseWxrDocument(xml);
  const authors = doc.authors.map(({ login, email, displayName, firstName, lastName }) => ({ login, email, displayName, firstName, lastName }));
  const terms = doc.terms
    .filter((t): t is typeof t & { taxonomy: 'category' | 'post_tag' } => t.taxonomy === 'category' || t.taxonomy === 'post_tag')
    .map(({ taxonomy, slug, name, description, parentSlug }) => ({ taxonomy, slug, name, description, parentSlug: taxonomy === 'category' ? parentSlug : '' }));
  const items = doc.items.map((i): WxrItem => ({
    sourceId: i.sourceId, guid: i.guid, type: i.type, title: i.title, content: i.content, excerpt: i.excerpt, slug: i.slug,
    status: i.status, date: i.date, author: i.author, parentSourceId: i.parentSourceId, menuOrder: i.menuOrder,
    commentStatus: i.commentStatus, pingStatus: i.pingStatus, password: i.password, sticky: i.sticky,
    categories: i.categories, tags: i.tags,
  }));
  return { authors, terms, items: orderParentsFirst(items, (i) => i.sourceId, (i) => (i.parentSourceId !== '0' ? i.parentSourceId : '')) };
}
