// The GraphQL types the content definitions (src/resources/content.ts) name: text values with
// raw/rendered forms, registered meta, and the taxonomy filter of the lists. The definitions name
// them by their GraphQL names; the values they resolve to are made in src/content/fields.ts.
import { builder } from '../builder.js';
import { Relation } from '../../resources/enums.js';
import { enumRef } from '../resource-types.js';
import type { TextValue } from '../../content/fields.js';
import type { CustomMeta } from '../../resources/content.js';
import type { FieldConfig } from '../../model/config.js';

export const ContentText = builder.objectRef<TextValue>('ContentText').implement({
  description: 'Text with its stored form (raw, only for callers who may edit) and its displayed HTML (rendered).',
  fields: (t) => ({
    raw: t.string({ nullable: true, description: 'The stored value; null unless the caller may edit content of this type.', resolve: (v) => (v.showRaw ? v.raw : null) }),
    rendered: t.string({ description: 'HTML as displayed; empty while a password is required.', resolve: (v) => v.rendered }),
    protected: t.boolean({ description: 'Whether the text is behind a post password.', resolve: (v) => v.isProtected }),
    blockVersion: t.int({ description: 'Block format version of the raw content: 1 when it holds blocks, else 0.', resolve: (v) => v.blockVersion }),
  }),
});

export const PostMetaType = builder.objectRef<{ footnotes: string }>('PostMeta').implement({
  description: 'Registered meta values of a post or page.',
  fields: (t) => ({ footnotes: t.exposeString('footnotes', { description: 'Footnotes of the block editor, JSON-encoded.' }) }),
});

export const PostMetaInput = builder.inputType('PostMetaInput', {
  description: 'Registered meta values to set.',
  fields: (t) => ({ footnotes: t.string({ required: false, description: 'Footnotes of the block editor, JSON-encoded.' }) }),
});

/** GraphQL type of a custom field (string fields with an enum get an enum type of their own). */
function metaFieldType(owner: string, key: string, f: FieldConfig): string | ReturnType<typeof builder.enumType> {
  if (f.enum) {
    const name = `${owner}${key.replace(/(^|_)([a-z0-9])/g, (_m, _u, c: string) => c.toUpperCase())}`;
    return builder.enumType(name, { description: f.description || `Values of ${key}.`, values: Object.fromEntries(f.enum.map((v) => [v, { value: v }])) });
  }
  return f.type === 'integer' ? 'Int' : f.type === 'number' ? 'Float' : f.type === 'boolean' ? 'Boolean' : 'String';
}

/**
 * `{Name}Meta` and `{Name}MetaInput`: the registered meta of a type with custom fields, under the
 * names its definition gives them (`customMetaOf`).
 */
export function customMetaTypes(owner: string, meta: CustomMeta): void {
  const { fields, footnotes } = meta;
  const types = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, metaFieldType(owner, k, f)]));
  const describe = (k: string, f: FieldConfig) => f.description || `The ${k} field.`;
  builder.objectRef<Record<string, unknown>>(meta.type).implement({
    description: `Registered meta values of a ${owner.toLowerCase()}.`,
    fields: (t) => ({
      ...(footnotes ? { footnotes: t.string({ description: 'Footnotes of the block editor, JSON-encoded.', resolve: (m) => m.footnotes as string }) } : {}),
      ...Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, t.field({ type: types[k] as never, description: describe(k, f), resolve: (m) => m[k] as never })])),
    }),
  });
  builder.inputType(meta.input, {
    description: `Registered meta values of a ${owner.toLowerCase()} to set.`,
    fields: (t) => ({
      ...(footnotes ? { footnotes: t.string({ required: false, description: 'Footnotes of the block editor, JSON-encoded.' }) } : {}),
      ...Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, t.field({ type: types[k] as never, required: false, description: describe(k, f) })])),
    }),
  });
}

export const TaxonomyFilterInput = builder.inputType('TaxonomyFilter', {
  description: 'Terms an item must (or must not) carry in one taxonomy.',
  fields: (t) => ({
    terms: t.intList({ required: false, description: 'Term ids.' }),
    slugs: t.stringList({ required: false, description: 'Term slugs, beside or instead of ids (`categories: { slugs: ["news"] }`); a slug that names no term matches no item. GraphQL only: REST takes ids.' }),
    operator: t.field({ type: enumRef(Relation), required: false, description: 'AND: every term; OR (default): any of them.' }),
    includeChildren: t.boolean({ required: false, description: 'Also match child categories of the listed ones.' }),
  }),
});

