// seo/v1 indexing and link indexing over GraphQL (deployment B): one mutation runs one step, as
// POST seo/v1/indexing/{step} and seo/v1/link-indexing/{posts,terms} do (runIndexingStep in
// src/seo/indexables/indexing.ts), with the same rights and error codes. In deployment A it
// refuses as an unknown REST route would (rest_no_route, 404).
import { builder } from '../../builder.js';
import { requireSeo } from './index.js';
import { INDEXING_STEPS, runIndexingStep, type IndexedObject, type IndexingStep } from '../../../seo/indexables/indexing.js';

const STEP_NAMES: Record<IndexingStep, string> = {
  prepare: 'PREPARE', posts: 'POSTS', terms: 'TERMS', 'post-type-archives': 'POST_TYPE_ARCHIVES', general: 'GENERAL',
  'indexables-complete': 'INDEXABLES_COMPLETE', complete: 'COMPLETE', 'link-posts': 'LINK_POSTS', 'link-terms': 'LINK_TERMS',
};

const SeoIndexingStep = builder.enumType('SeoIndexingStep', {
  description: 'A step of SEO indexing, by its REST route.',
  values: Object.fromEntries((Object.keys(INDEXING_STEPS) as IndexingStep[]).map((step) => [STEP_NAMES[step], {
    value: step, description: `POST seo/v1/${INDEXING_STEPS[step]}.`,
  }])) as Record<string, { value: IndexingStep; description: string }>,
});

interface StepAnswer { step: IndexingStep; objects: IndexedObject[]; more: boolean }

const SeoIndexingResultRef = builder.objectRef<StepAnswer>('SeoIndexingResult').implement({
  description: 'One indexing call, as the REST route answers it (`{objects, next_url}`).',
  fields: (t) => ({
    objects: t.field({ type: 'JSON', description: 'The objects indexed by this call (`{id, object_id, object_type, object_sub_type, permalink}`), as REST lists them.', resolve: (r) => r.objects }),
    nextStep: t.field({ type: SeoIndexingStep, nullable: true, description: 'The step to run again while a full batch was done (REST: `next_url`); null when this step is done.', resolve: (r) => (r.more ? r.step : null) }),
    done: t.boolean({ description: 'Whether this step has nothing left to do (REST: `next_url` false).', resolve: (r) => !r.more }),
  }),
});

builder.mutationFields((t) => ({
  runSeoIndexing: t.field({
    type: SeoIndexingResultRef,
    description: 'Runs one step of SEO indexing or link indexing, as POST seo/v1/indexing/{step} or seo/v1/link-indexing/{posts,terms} (edit_posts; a failure is 500 wpseo_error_indexing naming the object; deployment B).',
    args: { step: t.arg({ type: SeoIndexingStep, required: true, description: 'The step to run.' }) },
    resolve: async (_r, a, ctx) => {
      requireSeo(ctx);
      return { step: a.step as IndexingStep, ...(await runIndexingStep(ctx, a.step as IndexingStep)) };
    },
  }),
}));
