// The site's content model file: the content types, taxonomies and custom fields a site adds to
// the built-in ones (posts, pages, media, categories, tags), as WordPress adds them with
// register_post_type(), register_taxonomy() and register_meta(). It is JSON, named by the
// CONTENT_MODEL variable, read once when the process loads (the GraphQL schema, the route table
// and the OpenAPI document are all built from it then), and checked against the schema below: a
// bad file stops the start with a message naming the key.
//
// Custom types live in the content table and custom fields in post meta, as WordPress stores
// them, so adding or removing an entry needs no migration.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

export type Supports = 'title' | 'editor' | 'excerpt' | 'thumbnail' | 'revisions' | 'autosave' | 'author' | 'page-attributes' | 'custom-fields' | 'comments';

/** What a type and a taxonomy both declare: labels, names, tree or not, permalink base. */
interface RegisteredConfig {
  /** Plural label (the `name` of its types/taxonomies record). */
  label: string;
  singularLabel: string;
  description?: string;
  /** REST collection base under core/v2 (default: the entry's name). */
  restBase?: string;
  /** GraphQL object type name and list field (default: PascalCase of the name, and the REST base camelCased). */
  graphqlSingleName?: string;
  graphqlPluralName?: string;
  /** Items (or terms) have a parent of their own kind. */
  hierarchical?: boolean;
  /** First path segment of its addresses, `/{base}/{slug}/` (default: a type's REST base, a taxonomy's name). */
  permalinkBase?: string;
}

export interface ContentTypeConfig extends RegisteredConfig {
  supports?: Supports[];
  /** Taxonomies of this model or built-in ones (category, post_tag) its items carry. */
  taxonomies?: string[];
  /** Whose capabilities guard it: posts' (edit_posts …) or pages' (edit_pages …). */
  capabilityType?: 'post' | 'page';
  /** Shown to anonymous readers and on the site's pages (default true). */
  public?: boolean;
  menuIcon?: string;
}

export interface TaxonomyConfig extends RegisteredConfig {
  /** The content types whose items carry its terms. */
  types: string[];
}

export interface FieldConfig {
  type: 'string' | 'integer' | 'number' | 'boolean';
  /** Allowed values (strings only); each must be a GraphQL name, as GraphQL serves them as enum values. */
  enum?: string[];
  description?: string;
  default?: string | number | boolean;
  /** Contexts whose REST answers show it (default view and edit). */
  contexts?: ('view' | 'edit' | 'embed')[];
  /** The capability a writer needs beyond editing the item (default: none more). */
  writeCapability?: string;
}

/** A field's value where an item has none: its declared default, else its type's empty value. */
export const fieldDefault = (f: FieldConfig): string | number | boolean => f.default ?? (f.type === 'string' ? '' : f.type === 'boolean' ? false : 0);

export interface ContentModelConfig {
  types?: Record<string, ContentTypeConfig>;
  taxonomies?: Record<string, TaxonomyConfig>;
  /** Custom fields by the content type they are registered on (custom or built-in post/page). */
  fields?: Record<string, Record<string, FieldConfig>>;
  /**
   * The theme's menu locations (WordPress's register_nav_menus()): slug → description. Without
   * this section the site has `primary` and `footer` (src/menus/locations.ts); `{}` declares none.
   */
  menuLocations?: Record<string, string>;
}

const NAME = '^[a-z][a-z0-9_]{0,19}$';
const REST_BASE = '^[a-z][a-z0-9_-]{0,63}$';
const GRAPHQL_TYPE = '^[A-Z][A-Za-z0-9]{0,63}$';
const GRAPHQL_FIELD = '^[a-z][A-Za-z0-9]{0,63}$';
/** A menu location's slug: what core/v2/menu-locations/(?P<location>[\w-]+) takes. */
const MENU_LOCATION = '^[a-z][a-z0-9_-]{0,63}$';

const labels = {
  label: { type: 'string', minLength: 1 },
  singularLabel: { type: 'string', minLength: 1 },
  description: { type: 'string' },
  restBase: { type: 'string', pattern: REST_BASE },
  graphqlSingleName: { type: 'string', pattern: GRAPHQL_TYPE },
  graphqlPluralName: { type: 'string', pattern: GRAPHQL_FIELD },
  hierarchical: { type: 'boolean' },
  permalinkBase: { type: 'string', pattern: REST_BASE },
};

export const CONTENT_MODEL_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    types: {
      type: 'object',
      propertyNames: { pattern: NAME },
      additionalProperties: {
        type: 'object', additionalProperties: false, required: ['label', 'singularLabel'],
        properties: {
          ...labels,
          supports: { type: 'array', uniqueItems: true, items: { enum: ['title', 'editor', 'excerpt', 'thumbnail', 'revisions', 'autosave', 'author', 'page-attributes', 'custom-fields', 'comments'] } },
          taxonomies: { type: 'array', uniqueItems: true, items: { type: 'string', pattern: NAME } },
          capabilityType: { enum: ['post', 'page'] },
          public: { type: 'boolean' },
          menuIcon: { type: 'string' },
        },
      },
    },
    taxonomies: {
      type: 'object',
      propertyNames: { pattern: NAME },
      additionalProperties: {
        type: 'object', additionalProperties: false, required: ['label', 'singularLabel', 'types'],
        properties: { ...labels, types: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: NAME } } },
      },
    },
    menuLocations: {
      type: 'object',
      propertyNames: { pattern: MENU_LOCATION },
      additionalProperties: { type: 'string', minLength: 1 },
    },
    fields: {
      type: 'object',
      propertyNames: { pattern: NAME },
      additionalProperties: {
        type: 'object',
        propertyNames: { pattern: '^[a-z][a-z0-9_]{0,63}$' },
        additionalProperties: {
          type: 'object', additionalProperties: false, required: ['type'],
          properties: {
            type: { enum: ['string', 'integer', 'number', 'boolean'] },
            enum: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: '^[_A-Za-z][_0-9A-Za-z]*$' } },
            description: { type: 'string' },
            default: { type: ['string', 'number', 'boolean'] },
            contexts: { type: 'array', uniqueItems: true, items: { enum: ['view', 'edit', 'embed'] } },
            writeCapability: { type: 'string', pattern: '^[a-z_]+$' },
          },
        },
      },
    },
  },
} as const;

/** Names the built-in model holds: a custom entry may not take them. */
const BUILT_IN_TYPES = ['post', 'page', 'attachment', 'revision', 'autosave', 'nav_menu_item', 'wp_block', 'wp_template', 'wp_navigation'];
const BUILT_IN_TAXONOMIES = ['category', 'post_tag', 'nav_menu', 'link_category', 'post_format'];
/** REST bases and permalink segments already in use under core/v2 or on the site's pages. */
const TAKEN_BASES = ['posts', 'pages', 'media', 'categories', 'tags', 'users', 'types', 'statuses', 'taxonomies', 'settings', 'search', 'comments', 'blocks', 'menus', 'menu-items', 'menu-locations', 'sidebars', 'widgets', 'themes', 'plugins'];
const TAKEN_PERMALINKS = ['category', 'tag', 'author', 'feed', 'embed', 'page', 'search', 'wp-json', 'wp-admin', 'wp-content', 'graphql', 'reference', 'comments'];
/** Core field names a custom field may not shadow in an item's `meta`. */
const RESERVED_FIELDS = ['footnotes'];

/** A content model that does not load: the message names the file and the key. */
export class ContentModelError extends Error {
  override name = 'ContentModelError';
}

// Compiled on first use: compiling the 2020-12 schema (and its meta-schema) took about a quarter
// of a second of every start, and a site without a CONTENT_MODEL never checks one.
let validator: ValidateFunction | null = null;
const validateShape = (model: unknown): ValidateFunction => {
  validator ??= new Ajv2020({ allErrors: false, strict: false }).compile(CONTENT_MODEL_SCHEMA);
  validator(model);
  return validator;
};

/** The dotted path of a JSON pointer (`/types/event/label` → `types.event.label`). */
const keyOf = (pointer: string) => pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');

/** Checks a parsed model: its shape, then what the schema cannot say (names in use, references). */
export function checkContentModel(model: unknown, source = 'content model'): ContentModelConfig {
  const checked = validateShape(model);
  if (checked.errors?.length) {
    const e = checked.errors[0];
    let key = keyOf(e.instancePath);
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') { key = [key, (e.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.'); message = 'is not a known key'; }
    // A bad name: ajv puts the name on the error itself (its `pattern` error) or in its params.
    const badName = (e as { propertyName?: string }).propertyName ?? (e.params as { propertyName?: string }).propertyName;
    if (badName !== undefined) { key = [key, badName].filter(Boolean).join('.'); message = 'is not a valid name (lower-case letters, digits and _, starting with a letter; type and taxonomy names at most 20 characters)'; }
    if (e.keyword === 'required') { key = [key, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.'); message = 'is required'; }
    if (e.keyword === 'enum') message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    throw new ContentModelError(`${source}: ${key || '(top level)'} ${message}`);
  }
  // A copy: the links filled in below (a taxonomy's types onto the types) are not the caller's to see.
  const m = structuredClone(model) as ContentModelConfig;
  const fail = (key: string, message: string): never => { throw new ContentModelError(`${source}: ${key} ${message}`); };
  const types = m.types ?? {};
  const taxonomies = m.taxonomies ?? {};
  const bases = new Map<string, string>(TAKEN_BASES.map((b) => [b, 'a built-in route']));
  const links = new Map<string, string>(TAKEN_PERMALINKS.map((b) => [b, 'a built-in address']));
  const gqlNames = new Map<string, string>([['Post', 'post'], ['Page', 'page'], ['MediaItem', 'attachment'], ['Category', 'category'], ['Tag', 'post_tag'], ['User', 'user']]);
  const claim = (map: Map<string, string>, value: string, key: string, owner: string) => {
    const holder = map.get(value);
    if (holder) fail(key, `"${value}" is already used by ${holder}`);
    map.set(value, owner);
  };
  for (const [name, t] of Object.entries(types)) {
    if (BUILT_IN_TYPES.includes(name)) fail(`types.${name}`, 'is a built-in content type');
    claim(bases, t.restBase ?? name, `types.${name}.restBase`, `the type ${name}`);
    claim(links, t.permalinkBase ?? t.restBase ?? name, `types.${name}.permalinkBase`, `the type ${name}`);
    claim(gqlNames, t.graphqlSingleName ?? pascal(name), `types.${name}.graphqlSingleName`, `the type ${name}`);
    for (const [i, tax] of (t.taxonomies ?? []).entries()) {
      if (!BUILT_IN_TAXONOMIES.slice(0, 2).includes(tax) && !taxonomies[tax]) fail(`types.${name}.taxonomies.${i}`, `names "${tax}", which is neither built in nor in taxonomies`);
    }
  }
  for (const [name, t] of Object.entries(taxonomies)) {
    if (BUILT_IN_TAXONOMIES.includes(name)) fail(`taxonomies.${name}`, 'is a built-in taxonomy');
    if (types[name]) fail(`taxonomies.${name}`, 'has the name of a content type');
    claim(bases, t.restBase ?? name, `taxonomies.${name}.restBase`, `the taxonomy ${name}`);
    claim(links, t.permalinkBase ?? name, `taxonomies.${name}.permalinkBase`, `the taxonomy ${name}`);
    claim(gqlNames, t.graphqlSingleName ?? pascal(name), `taxonomies.${name}.graphqlSingleName`, `the taxonomy ${name}`);
    for (const [i, type] of t.types.entries()) {
      if (!types[type]) fail(`taxonomies.${name}.types.${i}`, `names "${type}", which is not a content type of this model (built-in types keep their own taxonomies)`);
    }
  }
  for (const [type, fields] of Object.entries(m.fields ?? {})) {
    if (type !== 'post' && type !== 'page' && !types[type]) fail(`fields.${type}`, 'names no content type (custom fields go on post, page or a type of this model)');
    for (const [key, f] of Object.entries(fields)) {
      if (RESERVED_FIELDS.includes(key)) fail(`fields.${type}.${key}`, 'is a field WordPress registers itself');
      if (f.enum && f.type !== 'string') fail(`fields.${type}.${key}.enum`, 'is for string fields only');
      if (f.default !== undefined) {
        const ok = f.type === 'boolean' ? typeof f.default === 'boolean'
          : f.type === 'string' ? typeof f.default === 'string' && (!f.enum || f.enum.includes(f.default))
            : typeof f.default === 'number' && (f.type === 'number' || Number.isInteger(f.default));
        if (!ok) fail(`fields.${type}.${key}.default`, `is not a valid ${f.enum ? 'value of its enum' : f.type}`);
      }
    }
  }
  // Taxonomies attach to the types that list them, and types list the taxonomies that name them.
  for (const [name, t] of Object.entries(taxonomies)) {
    for (const type of t.types) if (!(types[type].taxonomies ?? []).includes(name)) (types[type].taxonomies ??= []).push(name);
  }
  return m;
}

export const pascal = (name: string) => name.split('_').map((p) => p[0].toUpperCase() + p.slice(1)).join('');

/** Reads and checks a model file. */
export function readContentModel(file: string): ContentModelConfig {
  const path = resolve(file);
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch (err) {
    throw new ContentModelError(`content model ${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch (err) {
    throw new ContentModelError(`content model ${file}: is not JSON (${(err as Error).message})`);
  }
  return checkContentModel(parsed, `content model ${file}`);
}

/** The model of this process: CONTENT_MODEL's file, or none (the built-in types alone). */
export const CONTENT_MODEL: ContentModelConfig = process.env.CONTENT_MODEL ? readContentModel(process.env.CONTENT_MODEL) : {};
