// Stored fields and the Prisma models agree. A definition field read straight from storage (no
// resolver, or an explicit `column`) must name a column its model has, and every column of the
// models the definitions are declared on must be read by some field, or be listed below as
// deliberately internal (or as read by a resolver that does not yet name it). Both directions
// used to be checked by nothing but a request that happened to read the field: a field whose
// column was renamed answered undefined, and a column added to the model was read by no one
// without anyone deciding it should be.
//
// Which model a definition is read from is not written here: it is the model its GraphQL type is
// declared on (`builder.prismaObject('<Model>', …)` in src/schema), found in the built schema.
// No database is opened.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isObjectType } from 'graphql';
import { getDatamodel } from '../../src/generated/pothos-types.js';
import { schema } from '../../src/schema/index.js';
import { RESOURCES } from '../../src/resources/index.js';
import { PageResource, PostResource } from '../../src/resources/content.js';
import type { ResourceDef } from '../../src/resources/define.js';

const MODELS = getDatamodel().datamodel.models;

/** A model's stored columns: its fields but the relations. */
const columnsOf = (model: string): string[] => MODELS[model].fields.filter((f) => f.kind !== 'object').map((f) => f.name);

/**
 * Definitions whose GraphQL type is a plain object over records a service builds, not a Prisma
 * object. ApplicationPassword's records are rows of AppPassword (a Prisma `select` in its
 * service), so its stored fields are checked against that model; the type, status and taxonomy
 * definitions describe registrations in code, and nothing of theirs is stored.
 */
const NOT_PRISMA_OBJECTS: Record<string, string | null> = {
  ApplicationPassword: 'AppPassword',
  ContentTypeDefinition: null,
  StatusDefinition: null,
  TaxonomyDefinition: null,
  // Records the menus service makes from several rows (src/menus/service.ts), read by property.
  Menu: null,
  MenuItem: null,
  MenuLocation: null,
};

/**
 * The columns no definition field reads, by model, each with the reason. Adding a column to one
 * of these models fails the test until it is read by a field or listed here.
 */
const UNREAD: Record<string, Record<string, string>> = {
  Content: {
    // Internal on purpose: bookkeeping with no field of its own in WordPress's schemas.
    dateFloating: 'a draft whose date follows its saves until one is set; shown only through the date it gives',
    trashedStatus: 'the status before trashing, restored on untrash',
    trashedSlug: 'the slug before trashing, restored on untrash',
    renderedContent: 'content.rendered as saved: read by the content resolver through storedRender, never sent as a field of its own',
    renderedExcerpt: 'the default excerpt.rendered as saved, read the same way',
    renderedKey: 'what the stored renderings were made from (src/content/stored-render.ts)',
    // Read, but by resolvers that do not name it (a null parent is 0 on the wire): Page.parent,
    // the revisions' and autosaves' parent, MediaItem.post. To go when those fields declare it.
    parentId: 'read by the parent and post resolvers, undeclared',
  },
  Term: {},
  Comment: {
    // Internal on purpose: no field of WordPress's comment schema shows them.
    karma: "WordPress's comment_karma, kept for imports; not in the REST schema",
    trashedStatus: 'the status before the trash, spam or the item\'s trash, restored by untrash',
  },
  User: {
    // Internal on purpose: a secret, never answered.
    passwordHash: 'the login password hash',
    // Read by resolvers that do not name them (username, roles, registeredDate); to go when they do.
    login: 'read by the username resolver, undeclared',
    role: 'read by the roles, capabilities and extraCapabilities resolvers, undeclared',
    registered: 'read by the registeredDate resolver, undeclared',
  },
  AppPassword: {
    // Internal on purpose: the uuid identifies a password on the wire, and the hash is a secret.
    id: 'the row id; the uuid is the identifier on the wire',
    hash: 'the keyed hash of the password',
  },
};

/** Each definition with the model it is read from (null: none), from the built schema. */
function modelsOf(resources: ResourceDef[]): { prisma: Map<ResourceDef, string>; other: string[] } {
  const prisma = new Map<ResourceDef, string>();
  const other: string[] = [];
  for (const r of new Set(resources)) {
    const type = schema.getType(r.name);
    const model = isObjectType(type) ? (type.extensions as { pothosPrismaModel?: string }).pothosPrismaModel : undefined;
    if (model) prisma.set(r, model);
    else {
      other.push(r.name);
      if (NOT_PRISMA_OBJECTS[r.name]) prisma.set(r, NOT_PRISMA_OBJECTS[r.name]!);
    }
  }
  return { prisma, other };
}

/** What a Prisma `select` names that `model` lacks, following nested selections into relations. */
function selectProblems(model: string, select: Record<string, unknown>, where: string): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(select)) {
    if (value === undefined || value === false) continue;
    const field = MODELS[model].fields.find((f) => f.name === key);
    if (!field) problems.push(`${where} selects ${model}.${key}, which ${model} has not`);
    else if (field.kind === 'object' && value && typeof value === 'object' && 'select' in value) {
      problems.push(...selectProblems(field.type, (value as { select: Record<string, unknown> }).select, where));
    }
  }
  return problems;
}

/**
 * The stored fields of a definition that `model` cannot answer: a field read straight from
 * storage (no resolver, or an explicit `column`) whose column the model lacks, and a `select`
 * naming a field the model (or a related one) lacks. Write-only fields are never read.
 */
function storedFieldProblems(resource: ResourceDef, model: string): string[] {
  const columns = new Set(columnsOf(model));
  const problems: string[] = [];
  for (const [name, f] of Object.entries(resource.fields)) {
    if (f.writeOnly) continue;
    const column = f.column ?? name;
    if ((!f.resolve || f.column) && !columns.has(column)) problems.push(`${resource.name}.${name} reads ${model}.${column}, which is not a column`);
    if (f.select) problems.push(...selectProblems(model, f.select, `${resource.name}.${name}`));
  }
  return problems;
}

/**
 * The columns no field of the definitions reads. A field reads the column it names (`column`),
 * else the one of its own name, resolver or not (a resolver under a column's name formats that
 * column: the dates, the password), and the columns its `select` names.
 */
function unreadColumns(columns: string[], resources: ResourceDef[]): string[] {
  const read = new Set<string>();
  for (const r of resources) {
    for (const [name, f] of Object.entries(r.fields)) {
      if (f.writeOnly) continue;
      read.add(f.column ?? name);
      for (const [key, value] of Object.entries(f.select ?? {})) if (value !== undefined && value !== false) read.add(key);
    }
  }
  return columns.filter((c) => !read.has(c));
}

/**
 * The names a model maps to another column or table name (`@map`, `@@map`). The direct reads
 * (src/db/content-read.ts) write the generated data model's field names as SQL identifiers, and
 * that data model does not carry mapped names.
 */
function mappedNames(prismaText: string, models: string[]): string[] {
  const found: string[] = [];
  for (const model of models) {
    const block = new RegExp(`^model ${model} \\{([\\s\\S]*?)^\\}`, 'm').exec(prismaText);
    if (!block) { found.push(`${model}: no such model`); continue; }
    for (const line of block[1].split('\n')) if (/@@?map\(/.test(line.replace(/\/\/.*$/, ''))) found.push(`${model}: ${line.trim()}`);
  }
  return found;
}

const { prisma: MODEL_OF, other: OTHER } = modelsOf(RESOURCES);
const resourcesOn = (model: string, map = MODEL_OF) => [...map].filter(([, m]) => m === model).map(([r]) => r);

describe('resource definitions and the Prisma models', () => {
  it('every definition is read from the model its GraphQL type is declared on, or is known not to be a Prisma object', () => {
    expect(OTHER.sort()).toEqual(Object.keys(NOT_PRISMA_OBJECTS).sort());
    const byName = Object.fromEntries([...MODEL_OF].map(([r, m]) => [r.name, m]));
    expect(byName).toMatchObject({ Post: 'Content', Page: 'Content', MediaItem: 'Content', PostRevision: 'Content', PageAutosave: 'Content', Category: 'Term', Tag: 'Term', User: 'User' });
  });

  it('every field read straight from storage names a column of its model', () => {
    expect([...MODEL_OF].flatMap(([r, model]) => storedFieldProblems(r, model))).toEqual([]);
  });

  it('every column of those models is read by a definition, or listed as unread with a reason', () => {
    const models = [...new Set(MODEL_OF.values())].sort();
    expect(models).toEqual(Object.keys(UNREAD).sort());
    for (const model of models) {
      // Equal, not contained: a listed column that a field now reads, or that is gone, fails too.
      expect({ model, unread: unreadColumns(columnsOf(model), resourcesOn(model)).sort() }).toEqual({ model, unread: Object.keys(UNREAD[model]).sort() });
    }
  });

  it('the models the direct content reads use map no names (they write field names as SQL identifiers)', () => {
    const text = readFileSync(new URL('../../prisma/models.prisma', import.meta.url), 'utf8');
    expect(mappedNames(text, ['Content', 'TermRelationship', 'PostMeta'])).toEqual([]);
  });
});

// Each check above, given a definition or a model changed in the way it exists to catch.
describe('the checks report what they should', () => {
  it('a field with no resolver and no column of its name', () => {
    const changed = { ...PostResource, fields: { ...PostResource.fields, foo: { kind: 'string' as const, description: '', contexts: ['view' as const] } } };
    expect(storedFieldProblems(changed, 'Content')).toEqual(['Post.foo reads Content.foo, which is not a column']);
  });

  it('a column renamed in a definition, resolver or not', () => {
    const changed = { ...PostResource, fields: { ...PostResource.fields, author: { ...PostResource.fields.author, column: 'authorID' }, date: { ...PostResource.fields.date, column: 'published' } } };
    expect(storedFieldProblems(changed, 'Content')).toEqual(['Post.date reads Content.published, which is not a column', 'Post.author reads Content.authorID, which is not a column']);
  });

  it('a selection naming a field the related model has not', () => {
    const changed = { ...PostResource, fields: { ...PostResource.fields, tagDatabaseIds: { ...PostResource.fields.tagDatabaseIds, select: { terms: { select: { termID: true } } } } } };
    expect(storedFieldProblems(changed, 'Content')).toEqual(['Post.tagDatabaseIds selects TermRelationship.termID, which TermRelationship has not']);
  });

  it('a column added to the model and read by no definition', () => {
    expect(unreadColumns([...columnsOf('Content'), 'searchVector'], resourcesOn('Content'))).toContain('searchVector');
  });

  it('a column no definition reads any more', () => {
    const changed = { ...PageResource, fields: Object.fromEntries(Object.entries(PageResource.fields).filter(([name]) => name !== 'menuOrder')) };
    const map = new Map([...MODEL_OF].map(([r, m]) => [r === PageResource ? changed : r, m] as const));
    expect(unreadColumns(columnsOf('Content'), resourcesOn('Content', map))).toContain('menuOrder');
    expect(unreadColumns(columnsOf('Content'), resourcesOn('Content'))).not.toContain('menuOrder');
  });

  it('a definition whose type is not a Prisma object', () => {
    const gadget = { name: 'Gadget', title: 'gadget', description: 'A thing for tests.', fields: {} };
    expect(modelsOf([...RESOURCES, gadget]).other).toContain('Gadget');
  });

  it('a mapped column or table name', () => {
    const text = 'model Content {\n  id Int @id\n  title String @map("post_title") // a comment\n}\nmodel PostMeta {\n  id Int @id\n  // @map("not_this")\n  @@map("wp_postmeta")\n}\n';
    expect(mappedNames(text, ['Content', 'PostMeta', 'Term'])).toEqual(['Content: title String @map("post_title") // a comment', 'PostMeta: @@map("wp_postmeta")', 'Term: no such model']);
  });
});
