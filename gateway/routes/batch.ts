// POST /batch/v1: up to 25 requests in one, each run as a single request would run (same
// caller, validation, errors, cache retirement), answered 207 with one envelope per item.
// Beyond WordPress: `atomic: true` runs every item in one database transaction and undoes all of
// them when one fails.
import type { BatchItem, Endpoint, ItemResult, RouteEntry } from '../types.js';

export const MAX_BATCH_ITEMS = 25;

export function batchRoutes(): RouteEntry[] {
  const batch: Endpoint = {
    methods: ['POST'], permission: 'public',
    args: {
      validation: { type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal' },
      requests: {
        required: true, type: 'array', maxItems: MAX_BATCH_ITEMS,
        items: {
          type: 'object',
          properties: {
            method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
            path: { type: 'string', required: true },
            body: { type: 'object', properties: {}, additionalProperties: true },
            headers: { type: 'object', properties: {}, additionalProperties: { type: ['string', 'array'], items: { type: 'string' } } },
          },
        },
      },
      atomic: {
        type: 'boolean', default: false,
        description: 'Not in WordPress: run every request in one database transaction, and undo them all when one fails. The requests are validated first, as with require-all-validate.',
      },
    },
    async handler(req) {
      const items = (req.params.requests as BatchItem[]).map((item) => req.batchItem!(item));
      const atomic = req.params.atomic === true;
      // require-all-validate (and atomic): nothing runs unless every item resolves and validates.
      if (req.params.validation === 'require-all-validate' || atomic) {
        const checks = items.map((item) => item.error ?? item.validate!());
        if (checks.some(Boolean)) return { status: 207, body: { failed: 'validation', responses: checks.map(envelope) } };
      }
      const { results, rolledBack } = await req.runBatch!(items, { atomic });
      if (rolledBack) {
        // Every item was undone: the answers of those that ran, the failing one last; null for the rest.
        const responses = items.map((_, i) => (i < results.length ? envelope(results[i]) : null));
        return { status: 207, body: { failed: 'atomic', responses } };
      }
      return { status: 207, body: { responses: results.map(envelope) } };
    },
  };
  return [{ namespace: '', pattern: '/batch/v1', endpoints: [batch] }];
}

const envelope = (r: ItemResult | null) => (r ? { body: r.body, status: r.status, headers: r.headers } : null);
