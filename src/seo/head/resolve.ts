// Which object a URL of the site names, for the head: its indexable by permalink when indexed,
// else the address read as the public pages read it (posts, pages, category, tag and author archives).
import type { Context } from '../../context.js';
import { hashPermalink } from '../indexables/build.js';
import type { HeadTarget } from './head.js';

/** Resolves posts and pages (given by the caller, which owns the front-end's rules) and archives. */
export async function targetOfUrl(
  ctx: Context, url: URL, resolveContent: (url: URL) => Promise<number | 'home' | null>,
): Promise<HeadTarget> {
  const site = await ctx.site();
  const clean = new URL(url.toString());
  clean.hash = '';
  const hit = await ctx.prisma.indexable.findFirst({
    where: { permalinkHash: hashPermalink(clean.toString()), objectType: { in: ['post', 'term', 'user', 'home-page'] } },
    select: { objectType: true, objectId: true, isPublic: true, postStatus: true },
  });
  // With a static front page the home URL is that page's (the resolver below finds it).
  const staticFront = site.showOnFront === 'page' && site.pageOnFront > 0;
  if (hit?.objectType === 'home-page' && !staticFront) return { kind: 'home' };
  if (hit && hit.objectId !== null && (hit.objectType !== 'post' || hit.postStatus === 'publish')) {
    return { kind: hit.objectType as 'post' | 'term' | 'user', id: hit.objectId };
  }
  let homeUrl: URL;
  try { homeUrl = new URL(`${site.home}/`); } catch { return { kind: '404' }; }
  if (url.host !== homeUrl.host) return { kind: '404' };
  const rel = url.pathname.startsWith(homeUrl.pathname) ? url.pathname.slice(homeUrl.pathname.length) : null;
  const archive = rel === null ? null : /^(category|tag|author)\/(?:.+\/)?([^/]+)\/?$/.exec(rel);
  if (archive) {
    const slug = archive[2].toLowerCase();
    if (archive[1] === 'author') {
      const user = await ctx.prisma.user.findUnique({ where: { slug }, select: { id: true } });
      return user ? { kind: 'user', id: user.id } : { kind: '404' };
    }
    const term = await ctx.prisma.term.findUnique({ where: { taxonomy_slug: { taxonomy: archive[1] === 'tag' ? 'post_tag' : 'category', slug } }, select: { id: true } });
    return term ? { kind: 'term', id: term.id } : { kind: '404' };
  }
  const found = await resolveContent(url);
  if (found === 'home') return { kind: 'home' };
  return found === null ? { kind: '404' } : { kind: 'post', id: found };
}
