// abilities/v1: WordPress 6.9's Abilities API routes over the registry in src/abilities. The list
// and an ability need `read`; running one checks, in WordPress's order, that it exists (404
// rest_ability_not_found), the method fits it (read-only abilities run with GET, the others with
// POST: else 405 rest_ability_invalid_method), its input is valid (400 ability_invalid_input) and
// the caller may run it (401/403 rest_ability_cannot_execute).
import type { Endpoint, GatewayRequest, RouteEntry } from '../types.js';
import { WpError } from '../errors.js';
import { pagingHeaders } from '../shape/paging.js';
import { executeAbility, getAbility, listAbilities, requireAbilityRead, type Ability } from '../../src/abilities/index.js';

const NS = 'abilities/v1';
const base = `/${NS}/abilities`;
const item = `${base}/(?P<name>[a-z0-9-]+/[a-z0-9-]+)`;

export interface AbilityRouteOptions {
  /** The namespaces the site serves (core/get-site-info answers them). */
  namespaces: string[];
}

const nameArg = { description: 'Unique identifier for the ability.', type: 'string' } as const;

const requireRead = (req: GatewayRequest) => requireAbilityRead(req.ctx);
const found = getAbility;

/** An ability as the list and item routes print it: its definition, schemas included. */
function abilityData(a: Ability, root: string): Record<string, unknown> {
  return {
    name: a.name, label: a.label, description: a.description, category: a.category,
    input_schema: a.inputSchema, output_schema: a.outputSchema,
    meta: { annotations: a.annotations, show_in_rest: true },
    _links: {
      self: [{ href: `${root}${NS}/abilities/${a.name}` }],
      collection: [{ href: `${root}${NS}/abilities` }],
      'wp:action-run': [{ href: `${root}${NS}/abilities/${a.name}/run` }],
    },
  };
}

const context = ['view', 'edit', 'embed'];
const ABILITY_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'ability',
  type: 'object',
  properties: {
    name: { description: 'Unique identifier for the ability.', type: 'string', context, readonly: true },
    label: { description: 'Display label for the ability.', type: 'string', context, readonly: true },
    description: { description: 'Description of the ability.', type: 'string', context, readonly: true },
    category: { description: 'The category the ability belongs to.', type: 'string', context, readonly: true },
    input_schema: { description: 'JSON Schema of the ability\'s input.', type: 'object', context, readonly: true },
    output_schema: { description: 'JSON Schema of the ability\'s output.', type: 'object', context, readonly: true },
    meta: { description: 'Annotations of the ability (readonly, destructive, idempotent).', type: 'object', context, readonly: true },
  },
};

const list: Endpoint = {
  methods: ['GET'], permission: 'read',
  args: {
    context: { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view', 'edit', 'embed'], default: 'view' },
    page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
    per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 50, minimum: 1, maximum: 100 },
    category: { description: 'Limit results to abilities in specific category.', type: 'string' },
  },
  async handler(req) {
    requireRead(req);
    const page = Number(req.params.page);
    const perPage = Number(req.params.per_page);
    const category = req.params.category === undefined || req.params.category === '' ? null : String(req.params.category);
    const all = listAbilities(category);
    const totalPages = Math.ceil(all.length / perPage);
    const body = all.slice((page - 1) * perPage, page * perPage).map((a) => abilityData(a, req.root));
    return { status: 200, body, headers: pagingHeaders(`${req.root}${NS}/abilities`, req.query, page, all.length, totalPages) };
  },
};

const get: Endpoint = {
  methods: ['GET'], permission: 'read', args: { name: nameArg },
  async handler(req) {
    requireRead(req);
    return { status: 200, body: abilityData(found(req.params.name), req.root) };
  },
};

export function abilityRoutes(o: AbilityRouteOptions): RouteEntry[] {
  const run: Endpoint = {
    // Each ability says which it takes (its `readonly` annotation); the caller's rights are its own.
    methods: ['GET', 'POST'], permission: 'public',
    args: {
      name: nameArg,
      input: { description: 'Input parameters for the ability execution.' },
    },
    async handler(req) {
      const ability = found(req.params.name);
      const wanted = ability.annotations.readonly ? 'GET' : 'POST';
      if (req.method !== wanted) {
        throw new WpError('rest_ability_invalid_method', ability.annotations.readonly ? 'Read-only abilities require GET method.' : 'Abilities that perform updates require POST method.', 405);
      }
      const output = await executeAbility(req.ctx, ability, req.params.input, { fromQuery: req.method === 'GET', env: { namespaces: o.namespaces } });
      return { status: 200, body: output };
    },
  };
  return [
    { namespace: NS, pattern: base, endpoints: [list], schema: () => ABILITY_SCHEMA },
    { namespace: NS, pattern: item, endpoints: [get], schema: () => ABILITY_SCHEMA },
    { namespace: NS, pattern: `${item}/run`, endpoints: [run] },
  ];
}
