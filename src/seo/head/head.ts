// The head of a page: title, description, robots, canonical, Open Graph, Twitter and the JSON-LD
// graph, as the SEO plugin prints it. Built from the object's indexable when there is one (its
// overrides win), else from the object itself. `html` is the same data as <meta>/<link>/<script>.
import { INDEXED_TYPES } from '../indexables/build.js';
import type { Context } from '../../context.js';
import type { SiteSettings } from '../../site/options.js';
import { escHtml } from '../../content/escape.js';
import { renderExcerpt, renderTitle, stripAllTags } from '../../content/render.js';
import { ATTACHED_FILE, attachmentMeta, mediaMetaSelect, metaValue } from '../../media/metadata.js';
import { getSiteRepresentation } from '../site/options.js';
import { authorLink } from '../../users/service.js';
import { CONTENT_SELECT, contentColumns, homeColumns, readingMinutes, termColumns, userColumns, wordCount } from '../indexables/build.js';
import { loadTemplates, replaceVars, siteLocale, type TemplateVars } from './templates.js';

export type HeadTarget =
  | { kind: 'post'; id: number }
  | { kind: 'term'; id: number }
  | { kind: 'user'; id: number }
  | { kind: 'home' }
  | { kind: '404' };

export interface HeadJson { [key: string]: unknown }
export interface Head { json: HeadJson; html: string; status: number }

const ROBOTS_EXTRA = { 'max-snippet': 'max-snippet:-1', 'max-image-preview': 'max-image-preview:large', 'max-video-preview': 'max-video-preview:-1' };

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+00:00');
const text = (html: string) => stripAllTags(html).replace(/&#8217;/g, '’').replace(/&amp;/g, '&').trim();

interface Image { url: string; width?: number; height?: number; type?: string }

async function imageOf(ctx: Context, id: number | null | undefined): Promise<Image | null> {
  if (!id) return null;
  const row = await ctx.prisma.content.findUnique({ where: { id }, select: { id: true, type: true, mimeType: true, ...mediaMetaSelect } });
  if (row?.type !== 'attachment' || !row.mimeType.startsWith('image/')) return null;
  const file = metaValue(row.meta, ATTACHED_FILE);
  if (!file) return null;
  const meta = attachmentMeta(row.meta);
  const url = ctx.media ? ctx.media.storage.url(file) : file;
  return { url, width: meta.width, height: meta.height, type: row.mimeType };
}

/** Which person the site represents, or the organization; null when neither is set up. */
async function publisher(ctx: Context, site: SiteSettings): Promise<Record<string, unknown> | null> {
  const rep = await getSiteRepresentation(ctx);
  const home = `${site.home}/`;
  if (rep.company_or_person === 'person' && rep.company_or_person_user_id) {
    const user = await ctx.prisma.user.findUnique({ where: { id: rep.company_or_person_user_id }, select: { id: true, displayName: true } });
    if (!user) return null;
    const logo = rep.person_logo || (await imageOf(ctx, rep.person_logo_id))?.url;
    return {
      '@type': ['Person', 'Organization'], '@id': personId(site, user.id), name: user.displayName,
      ...(logo ? { logo: { '@type': 'ImageObject', url: logo, contentUrl: logo }, image: { '@type': 'ImageObject', url: logo, contentUrl: logo } } : {}),
    };
  }
  if (rep.company_or_person === 'company' && rep.company_name) {
    const logo = rep.company_logo || (await imageOf(ctx, rep.company_logo_id))?.url;
    return {
      '@type': 'Organization', '@id': `${home}#organization`, name: rep.company_name, url: home,
      ...(rep.description ? { description: rep.description } : {}),
      ...(logo ? { logo: { '@type': 'ImageObject', '@id': `${home}#/schema/logo/image/`, url: logo, contentUrl: logo, caption: rep.company_name }, image: { '@id': `${home}#/schema/logo/image/` } } : {}),
    };
  }
  return null;
}

const personId = (site: SiteSettings, userId: number) => `${site.home}/#/schema/person/${userId}`;

function website(site: SiteSettings, lang: string, pub: Record<string, unknown> | null) {
  const home = `${site.home}/`;
  return {
    '@type': 'WebSite', '@id': `${home}#website`, url: home, name: site.name,
    ...(site.description ? { description: site.description } : {}),
    ...(pub ? { publisher: { '@id': pub['@id'] } } : {}),
    potentialAction: [{
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${home}?s={search_term_string}` },
      'query-input': { '@type': 'PropertyValueSpecification', valueRequired: true, valueName: 'search_term_string' },
    }],
    inLanguage: lang.replace('_', '-'),
  };
}

function breadcrumbs(url: string, site: SiteSettings, trail: { name: string; item?: string }[]) {
  return {
    '@type': 'BreadcrumbList', '@id': `${url}#breadcrumb`,
    itemListElement: trail.map((t, i) => ({ '@type': 'ListItem', position: i + 1, name: t.name, ...(t.item ? { item: t.item } : {}) })),
  };
}

/** The head of `target`, or the 404 head when it is not something anonymous readers may see. */
export async function buildHead(ctx: Context, target: HeadTarget): Promise<Head> {
  const site = await ctx.site();
  const [tpl, lang, pub] = await Promise.all([loadTemplates(ctx), siteLocale(ctx), publisher(ctx, site)]);
  const sep = tpl.separator || '-';
  const base: TemplateVars = { sitename: site.name, sitedesc: site.description, sep };
  const home = `${site.home}/`;
  const graph: Record<string, unknown>[] = [];
  const json: HeadJson = {};
  let status = 200;
  let noindex = false;
  let ogType = 'website';
  let url: string | null = null;
  let image: Image | null = null;
  let pageType: string | string[] = 'WebPage';
  let title = '', description = '', name = '';
  let trail: { name: string; item?: string }[] = [];
  let override: { title?: string | null; description?: string | null; canonical?: string | null; isRobotsNoindex?: boolean | null } | null = null;
  let article: Record<string, unknown> | null = null;

  const notFound = () => {
    status = 404; noindex = true; url = null;
    title = replaceVars(tpl['title-404'], base);
    trail = [{ name: 'Home', item: home }, { name: 'Error 404: Page not found' }];
  };

  if (target.kind === 'post') {
    const row = await ctx.prisma.content.findUnique({ where: { id: target.id }, select: { ...CONTENT_SELECT, excerpt: true, author: { select: { id: true, displayName: true, slug: true } }, terms: { select: { taxonomy: true, term: { select: { name: true } } }, orderBy: { termOrder: 'asc' } } } });
    if (!row || !INDEXED_TYPES.includes(row.type) || row.status !== 'publish') notFound();
    else {
      const idx = await ctx.prisma.indexable.findUnique({ where: { objectType_objectId: { objectType: 'post', objectId: row.id } } });
      const cols = idx ?? (await contentColumns(ctx, site, row));
      override = idx;
      url = cols.permalink!;
      const plain = text(renderTitle(row.title));
      const categories = row.terms.filter((t) => t.taxonomy === 'category').map((t) => t.term.name);
      const vars: TemplateVars = {
        ...base, title: plain, excerpt: row.password ? '' : text(renderExcerpt(row.excerpt, row.content)),
        category: categories.join(', '), primary_category: categories[0] ?? '', name: row.author.displayName,
      };
      title = replaceVars(idx?.title ?? tpl[`title-${row.type}`] ?? tpl['title-post'], vars);
      description = replaceVars(idx?.description ?? tpl[`metadesc-${row.type}`] ?? '', vars);
      noindex = !cols.isPublic || idx?.isRobotsNoindex === true;
      image = await imageOf(ctx, row.featuredMedia);
      name = plain;
      trail = [{ name: 'Home', item: home }, { name: plain }];
      json.article_modified_time = iso(row.modifiedGmt);
      if (row.type === 'post') {
        ogType = 'article';
        json.article_published_time = iso(row.dateGmt);
        json.author = row.author.displayName;
        const minutes = idx?.estimatedReadingTimeMinutes ?? readingMinutes(row.content);
        json.twitter_misc = { 'Written by': row.author.displayName, 'Est. reading time': `${minutes} minute${minutes === 1 ? '' : 's'}` };
        article = {
          '@type': 'Article', '@id': `${url}#article`, isPartOf: { '@id': url },
          author: { name: row.author.displayName, '@id': personId(site, row.author.id) },
          headline: plain, datePublished: iso(row.dateGmt), dateModified: iso(row.modifiedGmt),
          mainEntityOfPage: { '@id': url }, wordCount: wordCount(row.content),
          ...(pub ? { publisher: { '@id': pub['@id'] } } : {}),
          ...(categories.length ? { articleSection: categories } : {}),
          inLanguage: lang.replace('_', '-'),
        };
        graph.push({ '@type': 'Person', '@id': personId(site, row.author.id), name: row.author.displayName, url: authorLink(site, row.author.slug) });
      }
      const dates = { datePublished: iso(row.dateGmt), dateModified: iso(row.modifiedGmt) };
      Object.assign(json, { _dates: dates });
    }
  } else if (target.kind === 'term') {
    const term = await ctx.prisma.term.findUnique({ where: { id: target.id } });
    if (!term || !['category', 'post_tag'].includes(term.taxonomy)) notFound();
    else {
      const idx = await ctx.prisma.indexable.findUnique({ where: { objectType_objectId: { objectType: 'term', objectId: term.id } } });
      const cols = idx ?? (await termColumns(ctx, site, term));
      override = idx;
      url = cols.permalink!;
      const vars: TemplateVars = { ...base, term_title: term.name, term_description: text(term.description), title: term.name };
      title = replaceVars(idx?.title ?? tpl[`title-${term.taxonomy}`], vars);
      description = replaceVars(idx?.description ?? tpl[`metadesc-${term.taxonomy}`] ?? '', vars);
      noindex = idx?.isRobotsNoindex === true;
      pageType = 'CollectionPage'; name = title;
      trail = [{ name: 'Home', item: home }, { name: term.name }];
    }
  } else if (target.kind === 'user') {
    const user = await ctx.prisma.user.findUnique({ where: { id: target.id }, select: { id: true, slug: true, displayName: true, description: true } });
    // As WordPress: an author archive without a published post is not found.
    const posts = user ? await ctx.prisma.content.count({ where: { authorId: user.id, type: 'post', status: 'publish' }, take: 1 }) : 0;
    if (!user || !posts) notFound();
    else {
      const idx = await ctx.prisma.indexable.findUnique({ where: { objectType_objectId: { objectType: 'user', objectId: user.id } } });
      override = idx;
      url = (idx ?? userColumns(site, user)).permalink!;
      const vars: TemplateVars = { ...base, name: user.displayName, user_description: user.description };
      title = replaceVars(idx?.title ?? tpl['title-author'], vars);
      description = replaceVars(idx?.description ?? tpl['metadesc-author'] ?? '', vars);
      noindex = idx?.isRobotsNoindex === true;
      ogType = 'profile'; pageType = 'ProfilePage'; name = title;
      trail = [{ name: 'Home', item: home }, { name: `Archives for ${user.displayName}` }];
      graph.push({ '@type': 'Person', '@id': personId(site, user.id), name: user.displayName, ...(user.description ? { description: user.description } : {}), mainEntityOfPage: { '@id': url } });
    }
  } else if (target.kind === 'home') {
    const idx = await ctx.prisma.indexable.findFirst({ where: { objectType: 'home-page', objectId: null } });
    override = idx;
    url = (idx ?? homeColumns(site)).permalink!;
    title = replaceVars(idx?.title ?? tpl['title-home'], base);
    description = replaceVars(idx?.description ?? tpl['metadesc-home'] ?? '', base);
    noindex = idx?.isRobotsNoindex === true;
    pageType = 'CollectionPage'; name = title;
    trail = [{ name: 'Home' }];
  } else notFound();

  if (override?.canonical) url = override.canonical;
  const pageUrl = url;
  json.title = title;
  if (description) json.description = description;
  json.robots = { index: noindex ? 'noindex' : 'index', follow: 'follow', ...(noindex ? {} : ROBOTS_EXTRA) };
  if (pageUrl && !noindex) json.canonical = pageUrl;
  json.og_locale = lang;
  json.og_type = ogType;
  json.og_title = title;
  if (description) json.og_description = description;
  if (pageUrl) json.og_url = pageUrl;
  json.og_site_name = site.name;
  if (image) json.og_image = [{ width: image.width, height: image.height, url: image.url, type: image.type }];
  json.twitter_card = 'summary_large_image';

  const dates = json._dates as Record<string, string> | undefined;
  delete json._dates;
  const pageNode: Record<string, unknown> | null = pageUrl ? {
    '@type': pageType, '@id': pageUrl, url: pageUrl, name, isPartOf: { '@id': `${home}#website` },
    ...(image ? { primaryImageOfPage: { '@id': `${pageUrl}#primaryimage` }, image: { '@id': `${pageUrl}#primaryimage` }, thumbnailUrl: image.url } : {}),
    ...(dates ?? {}),
    ...(description ? { description } : {}),
    breadcrumb: { '@id': `${pageUrl}#breadcrumb` },
    inLanguage: lang.replace('_', '-'),
    potentialAction: [{ '@type': 'ReadAction', target: [pageUrl] }],
  } : null;
  const nodes: Record<string, unknown>[] = [];
  if (article) nodes.push(article);
  if (pageNode) nodes.push(pageNode);
  if (image && pageUrl) nodes.push({ '@type': 'ImageObject', inLanguage: lang.replace('_', '-'), '@id': `${pageUrl}#primaryimage`, url: image.url, contentUrl: image.url, width: image.width, height: image.height });
  nodes.push(breadcrumbs(pageUrl ?? home, site, trail));
  nodes.push(website(site, lang, pub));
  if (pub) nodes.push(pub);
  nodes.push(...graph.filter((g) => !(pub && g['@id'] === pub['@id'])));
  json.schema = { '@context': 'https://schema.org', '@graph': nodes };
  return { json, html: headHtml(json), status };
}

/** The <title>, <meta>, <link> and JSON-LD <script> of a head object. */
export function headHtml(j: HeadJson): string {
  const lines: string[] = [];
  const meta = (attr: 'name' | 'property', key: string, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    lines.push(`<meta ${attr}="${key}" content="${escHtml(String(value))}" />`);
  };
  lines.push(`<title>${escHtml(String(j.title ?? ''))}</title>`);
  meta('name', 'description', j.description);
  const robots = j.robots as Record<string, string> | undefined;
  if (robots) meta('name', 'robots', Object.values(robots).join(', '));
  if (j.canonical) lines.push(`<link rel="canonical" href="${escHtml(String(j.canonical))}" />`);
  for (const key of ['og_locale', 'og_type', 'og_title', 'og_description', 'og_url', 'og_site_name', 'article_publisher', 'article_published_time', 'article_modified_time']) {
    meta('property', key.replace(/^og_/, 'og:').replace(/^article_/, 'article:'), j[key]);
  }
  for (const img of (j.og_image as Image[] | undefined) ?? []) {
    meta('property', 'og:image', img.url);
    meta('property', 'og:image:width', img.width);
    meta('property', 'og:image:height', img.height);
    meta('property', 'og:image:type', img.type);
  }
  meta('name', 'author', j.author);
  meta('name', 'twitter:card', j.twitter_card);
  let n = 1;
  for (const [label, value] of Object.entries((j.twitter_misc as Record<string, string> | undefined) ?? {})) {
    meta('name', `twitter:label${n}`, label);
    meta('name', `twitter:data${n}`, value);
    n++;
  }
  if (j.schema) lines.push(`<script type="application/ld+json" class="seo-schema-graph">${JSON.stringify(j.schema).replace(/</g, '\\u003c')}</script>`);
  return lines.join('\n');
}
