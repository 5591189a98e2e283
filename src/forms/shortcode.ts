// `[contact-form id="12"]` and `[contact-form-7 id="12"]` in post content. Rendering content is
// synchronous and cached by its text, so the shortcode survives it and is replaced afterwards,
// per request: the forms named by every item of a response are loaded in one query (a batch
// loader), and only when a rendered text contains the shortcode at all.
import type { Context } from '../context.js';
import { escHtml } from '../content/escape.js';
import { loadFormsByRef } from './store.js';
import { renderFormRecord } from './html.js';
import type { ContactFormRecord } from './store.js';

// The renderer texturizes quotes (" → &#8221; …), so the id's quotes may be entities; a shortcode
// alone in its paragraph takes the paragraph with it.
const SHORTCODE = /(<p>\s*)?\[contact-form(?:-7)?\s+([^\]]*?)\](\s*<\/p>)?/g;
const QUOTE = `(?:"|'|&#82(?:16|17|20|21|42|43);|&quot;)?`;
const ID_ATTR = new RegExp(`\\bid\\s*=\\s*${QUOTE}([0-9A-Fa-f]+)`);

export const hasFormShortcode = (html: string): boolean => html.includes('[contact-form');

/** The rendered content with every form shortcode replaced by its form (unknown forms by a notice). */
export async function embedContactForms(ctx: Context, html: string, containerPost: number): Promise<string> {
  if (!hasFormShortcode(html)) return html;
  const matches = [...html.matchAll(SHORTCODE)];
  const refs = matches.map((m) => ID_ATTR.exec(m[2])?.[1]?.toLowerCase() ?? '');
  const loader = ctx.loader<string, ContactFormRecord | null>('contactFormByRef', async (keys) => {
    const found = await loadFormsByRef(ctx, [...keys]);
    return keys.map((k) => found.get(k) ?? null);
  });
  const forms = await Promise.all(refs.map((r) => (r ? loader.load(r) : Promise.resolve(null))));
  let ordinal = 0;
  const rendered = await Promise.all(matches.map(async (m, i) => {
    const form = forms[i];
    const own = !!m[1] && !!m[3];
    if (!form) return `${own ? '' : m[1] ?? ''}<p class="wpcf7-contact-form-not-found"><strong>${escHtml('Error:')}</strong> ${escHtml('Contact form not found.')}</p>${own ? '' : m[3] ?? ''}`;
    const markup = await renderFormRecord(ctx, form, { containerPost, ordinal: ++ordinal });
    return own ? markup : `${m[1] ?? ''}${markup}${m[3] ?? ''}`;
  }));
  let i = 0;
  return html.replace(SHORTCODE, () => rendered[i++]);
}
