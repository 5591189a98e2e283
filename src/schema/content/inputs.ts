// The list filter shared by the post-like types. Their writable fields' input types are made
// from their definitions (src/resources/content.ts).
import { builder } from '../builder.js';
import { enumRef } from '../resource-types.js';
import { ContentStatusFilter, PostFormat, Relation, SearchColumn } from '../../resources/enums.js';

export const TaxonomyFilterInput = builder.inputType('TaxonomyFilter', {
  description: 'Terms an item must (or must not) carry in one taxonomy.',
  fields: (t) => ({
    terms: t.intList({ required: false, description: 'Term ids.' }),
    operator: t.field({ type: enumRef(Relation), required: false, description: 'AND: every term; OR (default): any of them.' }),
    includeChildren: t.boolean({ required: false, description: 'Also match child categories of the listed ones.' }),
  }),
});

export const ContentListFilter = builder.inputType('ContentListFilter', {
  description: 'Filters of a content list; every one optional.',
  fields: (t) => ({
    search: t.string({ required: false, description: 'Words that must appear (full-text, word prefixes); -word excludes; "quoted phrase".' }),
    searchColumns: t.field({ type: [enumRef(SearchColumn)], required: false, description: 'Where to search (default all).' }),
    searchExact: t.boolean({ required: false, description: 'Search for the whole string as one phrase.' }),
    after: t.string({ required: false, description: 'Published after this date (ISO 8601; site time without an offset).' }),
    before: t.string({ required: false, description: 'Published before this date.' }),
    modifiedAfter: t.string({ required: false, description: 'Modified after this date.' }),
    modifiedBefore: t.string({ required: false, description: 'Modified before this date.' }),
    author: t.intList({ required: false, description: 'Only items by these authors.' }),
    authorExclude: t.intList({ required: false, description: 'No items by these authors.' }),
    include: t.intList({ required: false, description: 'Only these ids.' }),
    exclude: t.intList({ required: false, description: 'Not these ids.' }),
    slug: t.stringList({ required: false, description: 'Only items with one of these slugs.' }),
    status: t.field({ type: [enumRef(ContentStatusFilter)], required: false, description: 'Statuses to include (default PUBLISH; ANY for all but trash).' }),
    taxRelation: t.field({ type: enumRef(Relation), required: false, description: 'AND (default) or OR between the taxonomy filters.' }),
    categories: t.field({ type: TaxonomyFilterInput, required: false, description: 'Posts: categories to match.' }),
    categoriesExclude: t.field({ type: TaxonomyFilterInput, required: false, description: 'Posts: categories to avoid.' }),
    tags: t.field({ type: TaxonomyFilterInput, required: false, description: 'Posts: tags to match.' }),
    tagsExclude: t.field({ type: TaxonomyFilterInput, required: false, description: 'Posts: tags to avoid.' }),
    sticky: t.boolean({ required: false, description: 'Posts: true for sticky posts only, false for none of them.' }),
    format: t.field({ type: [enumRef(PostFormat)], required: false, description: 'Posts: formats to include.' }),
    parent: t.intList({ required: false, description: 'Pages: only children of these pages (0 for top level).' }),
    parentExclude: t.intList({ required: false, description: 'Pages: not children of these pages.' }),
    menuOrder: t.int({ required: false, description: 'Pages: only this menu order.' }),
  }),
});

