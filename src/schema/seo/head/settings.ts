// An item's SEO settings (focus keyphrase, title and description overrides, canonical, noindex,
// cornerstone) for editors, in deployment B; the REST route /seo/v1/item_settings/{id} runs these.
import { builder } from '../../builder.js';
import { restError } from '../../../errors.js';
import type { Context } from '../../../context.js';
import { itemSettings, updateItemSettings, type ItemSettings } from '../../../seo/indexables/settings.js';

const SeoItemSettingsRef = builder.objectRef<ItemSettings>('SeoItemSettings').implement({
  description: 'The SEO settings of a post or page, kept on its SEO index row.',
  fields: (t) => ({
    databaseId: t.int({ description: 'Id of the post or page (REST: `id`).', resolve: (r) => r.id }),
    focusKeyphrase: t.string({ description: 'The focus keyphrase; empty when none.', resolve: (r) => r.focus_keyphrase }),
    title: t.string({ description: 'SEO title template override; empty uses the type\'s template.', resolve: (r) => r.title }),
    metaDescription: t.string({ description: 'Meta description template override; empty uses the type\'s template.', resolve: (r) => r.meta_description }),
    canonical: t.string({ description: 'Canonical URL override; empty when none.', resolve: (r) => r.canonical }),
    noindex: t.boolean({ nullable: true, description: 'The item\'s own noindex choice; null follows the default.', resolve: (r) => r.noindex }),
    cornerstone: t.boolean({ description: 'Whether it is cornerstone content.', resolve: (r) => r.cornerstone }),
    seoScore: t.int({ nullable: true, description: 'SEO score 0–100 of the focus keyphrase analysis; null without a keyphrase.', resolve: (r) => r.seo_score }),
    readabilityScore: t.int({ nullable: true, description: 'Readability score 0–100; null without text.', resolve: (r) => r.readability_score }),
  }),
});

const SeoItemSettingsInput = builder.inputType('SeoItemSettingsInput', {
  description: 'Settings to change; each one absent is kept.',
  fields: (t) => ({
    focusKeyphrase: t.string({ required: false, description: 'Empty removes it.' }),
    title: t.string({ required: false, description: 'Empty returns to the type\'s template.' }),
    metaDescription: t.string({ required: false, description: 'Empty returns to the type\'s template.' }),
    canonical: t.string({ required: false, description: 'An http(s) URL; empty removes it.' }),
    noindex: t.boolean({ required: false, description: 'true or false to choose; null to follow the default.' }),
    cornerstone: t.boolean({ required: false, description: 'Whether it is cornerstone content.' }),
  }),
});

/** Deployment A keeps no SEO index: the fields answer as an unknown route would. */
function requireSeo(ctx: Context): void {
  if (!ctx.services.seo.indexing) throw restError('rest_no_route', 'No route was found matching the URL and request method.', 404);
}

const opt = <T>(v: T | null | undefined) => (v === null ? undefined : v);

builder.queryFields((t) => ({
  seoItemSettings: t.field({
    type: SeoItemSettingsRef,
    description: 'The SEO settings of a post or page (the right to edit it; deployment B).',
    args: { id: t.arg.int({ required: true, description: 'Id of the post or page.' }) },
    resolve: (_r, a, ctx) => { requireSeo(ctx); return itemSettings(ctx, a.id); },
  }),
}));

builder.mutationFields((t) => ({
  updateSeoItemSettings: t.field({
    type: SeoItemSettingsRef,
    description: 'Changes the SEO settings of a post or page (the right to edit it; deployment B).',
    args: { id: t.arg.int({ required: true, description: 'Id of the post or page.' }), input: t.arg({ type: SeoItemSettingsInput, required: true, description: 'The settings to change.' }) },
    resolve: (_r, a, ctx) => {
      requireSeo(ctx);
      const i = a.input;
      return updateItemSettings(ctx, a.id, {
        focusKeyphrase: opt(i.focusKeyphrase), title: opt(i.title), description: opt(i.metaDescription), canonical: opt(i.canonical),
        noindex: i.noindex, cornerstone: opt(i.cornerstone),
      });
    },
  }),
}));
