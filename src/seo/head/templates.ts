// Title and description templates with %%variable%% placeholders, as the SEO plugin keeps them in
// its titles option: `title-<type>` and `metadesc-<type>` per content type, taxonomy and special
// page, and one separator. Unknown or empty variables vanish; what is left is tidied (spaces
// collapsed, no separator at either end).

import type { Context } from '../../context.js';
import { escapeRegExp } from '../../content/escape.js';

/** The option (JSON object) holding the templates and the separator; missing keys take the defaults. */
export const TITLES_OPTION = 'seo_titles';

export const TEMPLATE_DEFAULTS: Record<string, string> = {
  separator: '-',
  'title-post': '%%title%% %%page%% %%sep%% %%sitename%%',
  'title-page': '%%title%% %%page%% %%sep%% %%sitename%%',
  'title-category': '%%term_title%% Archives %%page%% %%sep%% %%sitename%%',
  'title-post_tag': '%%term_title%% Archives %%page%% %%sep%% %%sitename%%',
  'title-author': '%%name%%, Author at %%sitename%% %%page%%',
  'title-home': '%%sitename%% %%page%% %%sep%% %%sitedesc%%',
  'title-ptarchive-post': '%%pt_plural%% Archive %%page%% %%sep%% %%sitename%%',
  'title-404': 'Page not found %%sep%% %%sitename%%',
  'title-search': 'You searched for %%searchphrase%% %%page%% %%sep%% %%sitename%%',
  'metadesc-post': '',
  'metadesc-page': '',
  'metadesc-category': '',
  'metadesc-post_tag': '',
  'metadesc-author': '',
  'metadesc-home': '',
  'metadesc-ptarchive-post': '',
};

/** Values the variables take for one object; absent ones replace to nothing. */
export interface TemplateVars {
  title?: string;
  sitename?: string;
  sitedesc?: string;
  excerpt?: string;
  category?: string;
  primary_category?: string;
  tag?: string;
  term_title?: string;
  term_description?: string;
  name?: string;
  user_description?: string;
  date?: string;
  modified?: string;
  searchphrase?: string;
  pt_single?: string;
  pt_plural?: string;
  /** The page number of a paged view; "Page 2 of 3" is printed only past the first page. */
  page?: { number: number; of?: number };
  sep?: string;
  [name: string]: unknown;
}

/** Replaces every %%variable%% of `template`; the separator defaults to "-". */
export function replaceVars(template: string, vars: TemplateVars): string {
  const sep = vars.sep ?? '-';
  const value = (name: string): string => {
    if (name === 'sep') return sep;
    if (name === 'page') {
      const p = vars.page;
      if (!p || p.number < 2) return '';
      return p.of ? `Page ${p.number} of ${p.of}` : `Page ${p.number}`;
    }
    const v = vars[name];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
  };
  const out = template.replace(/%%([a-z0-9_]+)%%/gi, (_m, name: string) => value(name.toLowerCase()));
  return tidy(out, sep);
}

/** Collapses runs of spaces, then drops separators left at either end or doubled by empty variables. */
function tidy(text: string, sep: string): string {
  let out = text.replace(/\s+/g, ' ').trim();
  if (!sep) return out;
  const s = escapeRegExp(sep);
  out = out.replace(new RegExp(`(?:\\s*${s}\\s*){2,}`, 'g'), ` ${sep} `);
  out = out.replace(new RegExp(`^(?:${s}\\s*)+`), '').replace(new RegExp(`(?:\\s*${s})+$`), '');
  return out.trim();
}


/** The stored templates over the defaults (a damaged option reads as none). */
export async function loadTemplates(ctx: Pick<Context, 'prisma'>): Promise<Record<string, string>> {
  const row = await ctx.prisma.option.findUnique({ where: { name: TITLES_OPTION } });
  let stored: unknown = {};
  try { stored = row ? JSON.parse(row.value) : {}; } catch { /* none */ }
  const out = { ...TEMPLATE_DEFAULTS };
  if (stored && typeof stored === 'object') for (const [k, v] of Object.entries(stored)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The site language (WordPress's WPLANG option), en_US when unset. */
export async function siteLocale(ctx: Pick<Context, 'prisma'>): Promise<string> {
  const row = await ctx.prisma.option.findUnique({ where: { name: 'WPLANG' } });
  let v: unknown = '';
  try { v = row ? JSON.parse(row.value) : ''; } catch { /* none */ }
  return typeof v === 'string' && v ? v : 'en_US';
}
