// A builder plugin that makes every field of the Query and Mutation root types nullable in the
// built schema.
//
// A root field that fails answers null with its error in `errors`. Were it non-null, that null
// would climb to `data` itself, so one missing post or an anonymous viewer query blanked every
// other field of the document, and clients that refuse a `data: null` answer (Apollo's default
// error policy) lost the whole page. Nullable roots are also what WPGraphQL serves.
//
// Mutations too: with non-null roots, a document whose second mutation fails comes back with
// `data: null`, so the client never sees what the first one did (the post it created, its id)
// although it was done, and a retry does it twice; a failing first mutation also stopped the
// ones after it without undoing anything, which was never a transaction to rely on. Nullable,
// each mutation reports its own outcome. The REST routes run one root field per document and
// turn any error into the WordPress error, so they answer as before.
//
// Subscriptions keep theirs: a subscription selects a single root field, so there is nothing
// beside it to save.
//
// Only the schema changes: a resolver's TypeScript type still says non-null, so a resolver
// reports a failure by throwing its WordPress error, never by returning a silent null. Fields
// below the roots keep their nullability, and of a list only the list itself becomes nullable,
// not its items.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';

const pluginName = 'nullableRoots';

export class NullableRootsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    // By the parent type's kind rather than the field's, so a field added to a root by any means counts.
    const parent = this.buildCache.getTypeConfig(fieldConfig.parentType);
    if ((parent.kind !== 'Query' && parent.kind !== 'Mutation') || fieldConfig.type.nullable) return fieldConfig;
    return { ...fieldConfig, type: { ...fieldConfig.type, nullable: true } };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      nullableRoots: NullableRootsPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, NullableRootsPlugin);

export default pluginName;
