// seo/v1 get_head: the head of any URL of the site, as an anonymous reader sees the page, whoever
// asks. Shared by the REST route and GraphQL's seoHeadByUrl.
import type { Context } from '../../context.js';
import { createContext } from '../../context.js';
import { restError } from '../../errors.js';
import { buildHead } from './head.js';
import { targetOfUrl } from './resolve.js';
import { publiclyViewable, resolveUrl } from '../../site/resolve.js';

export interface HeadByUrl { html: string; json: unknown; status: number }

const invalidUrl = () => restError('rest_invalid_param', 'Invalid parameter(s): url', 400, { params: { url: 'Invalid parameter.' }, details: {} });

/** An absolute http(s) URL (else 400 rest_invalid_param); its head, with the status the page answers with (404 when it resolves to nothing). */
export async function headByUrl(ctx: Context, raw: string): Promise<HeadByUrl> {
  let url: URL;
  try { url = new URL(raw); } catch { throw invalidUrl(); }
  if (!/^https?:$/.test(url.protocol)) throw invalidUrl();
  const anonymous = createContext(ctx.db, null, ctx.media);
  const site = await anonymous.site();
  const target = await targetOfUrl(anonymous, url, async (u) => {
    let local: URL;
    try { local = new URL(u.pathname + u.search, `${site.home}/`); } catch { return null; }
    if (u.host !== local.host) return null;
    const found = await resolveUrl(anonymous, site, local);
    if (found.kind === 'home') return 'home';
    if (found.kind === 'none' || found.item.embed || !['post', 'page'].includes(found.item.row.type)) return null;
    return (await publiclyViewable(anonymous, found.item.row)) ? found.item.row.id : null;
  });
  const head = await buildHead(anonymous, target);
  return { html: head.html, json: head.json, status: head.status };
}
