// The site's own abilities. Each reuses the service a REST route or GraphQL field uses, so the
// rules (who may write, what is visible, how text is filtered) are the same whichever way in.
import { defineAbility, type AbilityCategory } from './registry.js';
import { saveContent } from '../content/service.js';
import { permalink } from '../resources/content-types.js';
import { searchPage } from '../content/search-list.js';

export const CATEGORIES: AbilityCategory[] = [
  { slug: 'content', label: 'Content', description: 'Abilities that read or write posts and pages.' },
  { slug: 'site', label: 'Site', description: 'Abilities that describe the site as a whole.' },
];

const readOnly = { readonly: true, destructive: false, idempotent: true };
const count = { type: 'integer', minimum: 0 };

export const createDraft = defineAbility<{ title: string; content: string }, { id: number; link: string; status: string }>({
  name: 'core/create-draft',
  label: 'Create a draft post',
  description: 'Creates a draft post with the given title and content, as the caller, and answers its id and link.',
  category: 'content',
  inputSchema: {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, description: 'The title of the post.' },
      content: { type: 'string', default: '', description: 'The content of the post (HTML).' },
    },
    required: ['title'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      id: { type: 'integer', minimum: 1, description: 'The id of the new post.' },
      link: { type: 'string', description: 'The address of the post (the plain link while it is a draft).' },
      status: { type: 'string', const: 'draft' },
    },
    required: ['id', 'link', 'status'],
    additionalProperties: false,
  },
  annotations: { readonly: false, destructive: false, idempotent: false },
  permission: 'edit_posts',
  async execute(ctx, input) {
    // The posts controller's own write path: rights, HTML filtering and the transaction.
    const id = await saveContent(ctx, 'post', null, { title: input.title, content: input.content, status: 'draft' });
    const row = await ctx.prisma.content.findUniqueOrThrow({ where: { id }, select: { id: true, type: true, status: true, slug: true } });
    return { id, link: permalink(await ctx.site(), row), status: row.status };
  },
});

export const siteStatistics = defineAbility<Record<string, never>, Record<string, number>>({
  name: 'core/site-statistics',
  label: 'Site statistics',
  description: 'Counts the published posts and pages, the media items, the users and the terms of the site.',
  category: 'site',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false, default: {} },
  outputSchema: {
    type: 'object',
    properties: { posts: count, pages: count, media: count, users: count, terms: count },
    required: ['posts', 'pages', 'media', 'users', 'terms'],
    additionalProperties: false,
  },
  annotations: readOnly,
  // The user count is no public fact: people who write for the site may see it.
  permission: (ctx) => ctx.can('edit_posts'),
  async execute(ctx) {
    const [posts, pages, media, users, terms] = await Promise.all([
      ctx.prisma.content.count({ where: { type: 'post', status: 'publish' } }),
      ctx.prisma.content.count({ where: { type: 'page', status: 'publish' } }),
      ctx.prisma.content.count({ where: { type: 'attachment', status: { not: 'trash' } } }),
      ctx.prisma.user.count(),
      ctx.prisma.term.count(),
    ]);
    return { posts, pages, media, users, terms };
  },
});

export const searchContent = defineAbility<{ query: string; type: 'post' | 'page'; per_page: number }, { total: number; results: { id: number; title: string; type: string }[] }>({
  name: 'core/search-content',
  label: 'Search content',
  description: 'Finds published posts or pages whose title, excerpt or content match the query, best matches first.',
  category: 'content',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'The words to look for.' },
      type: { type: 'string', enum: ['post', 'page'], default: 'post', description: 'What to search.' },
      per_page: { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'How many matches to answer at most.' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      total: { type: 'integer', minimum: 0, description: 'How many items match in all.' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: { id: { type: 'integer', minimum: 1 }, title: { type: 'string' }, type: { type: 'string' } },
          required: ['id', 'title', 'type'],
          additionalProperties: false,
        },
      },
    },
    required: ['total', 'results'],
    additionalProperties: false,
  },
  annotations: readOnly,
  permission: 'read',
  async execute(ctx, input) {
    // The full-text search of the collection routes' `search` parameter, published items only.
    const site = await ctx.site();
    const { ids, total } = await searchPage(ctx, site, input.type, { search: input.query, statuses: ['publish'], tax: [] }, { orderby: 'relevance', order: 'desc' }, 0, input.per_page);
    const rows = await ctx.prisma.content.findMany({ where: { id: { in: ids } }, select: { id: true, title: true, type: true } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return { total, results: ids.map((id) => byId.get(id)).filter((r) => r !== undefined) };
  },
});

export const getSiteInfo = defineAbility<Record<string, never>, { name: string; description: string; url: string; namespaces: string[] }>({
  name: 'core/get-site-info',
  label: 'Get site information',
  description: 'Answers the site title, tagline and address, and the REST namespaces it serves.',
  category: 'site',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false, default: {} },
  outputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string' }, description: { type: 'string' }, url: { type: 'string' },
      namespaces: { type: 'array', items: { type: 'string' } },
    },
    required: ['name', 'description', 'url', 'namespaces'],
    additionalProperties: false,
  },
  annotations: readOnly,
  permission: 'read',
  async execute(ctx, _input, env) {
    const site = await ctx.site();
    return { name: site.name, description: site.description, url: site.home, namespaces: env.namespaces };
  },
});
