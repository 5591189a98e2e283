// Input types shared by the post-like types.
import { builder } from '../builder.js';

export const TaxonomyFilterInput = builder.inputType('TaxonomyFilter', {
  description: 'Terms an item must (or must not) carry in one taxonomy.',
  fields: (t) => ({
    terms: t.intList({ required: false, description: 'Term ids.' }),
    operator: t.string({ required: false, description: 'AND: every term; OR (default): any of them.' }),
    includeChildren: t.boolean({ required: false, description: 'Also match child categories of the listed ones.' }),
  }),
});

export const ContentListFilter = builder.inputType('ContentListFilter', {
  description: 'Filters of a content list; every one optional.',
  fields: (t) => ({
    search: t.string({ required: false, description: 'Words that must appear (full-text, word prefixes); -word excludes; "quoted phrase".' }),
    searchColumns: t.stringList({ required: false, description: 'Where to search: post_title, post_content, post_excerpt (default all).' }),
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
    status: t.stringList({ required: false, description: 'Statuses to include (default publish; "any" for all but trash).' }),
    taxRelation: t.string({ required: false, description: 'AND (default) or OR between the taxonomy filters.' }),
    categories: t.field({ type: TaxonomyFilterInput, required: false, description: 'Posts: categories to match.' }),
    categoriesExclude: t.field({ type: TaxonomyFilterInput, required: false, description: 'Posts: categories to avoid.' }),
    tags: t.field({ type: TaxonomyFilterInput, required: false, description: 'Posts: tags to match.' }),
    tagsExclude: t.field({ type: TaxonomyFilterInput, required: false, description: 'Posts: tags to avoid.' }),
    sticky: t.boolean({ required: false, description: 'Posts: true for sticky posts only, false for none of them.' }),
    format: t.stringList({ required: false, description: 'Posts: formats to include.' }),
    parent: t.intList({ required: false, description: 'Pages: only children of these pages (0 for top level).' }),
    parentExclude: t.intList({ required: false, description: 'Pages: not children of these pages.' }),
    menuOrder: t.int({ required: false, description: 'Pages: only this menu order.' }),
  }),
});

export const PostMetaInput = builder.inputType('PostMetaInput', {
  description: 'Registered meta values to set.',
  fields: (t) => ({ footnotes: t.string({ required: false, description: 'Footnotes of the block editor, JSON-encoded.' }) }),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const common = (t: any) => ({
  date: t.string({ required: false, description: 'Publication date in site time (or with an offset); null makes a draft float again.' }),
  dateGmt: t.string({ required: false, description: 'Publication date in UTC.' }),
  slug: t.string({ required: false, description: 'URL-safe name; made unique.' }),
  status: t.string({ required: false, description: 'publish, future, draft, pending or private.' }),
  password: t.string({ required: false, description: 'Password protecting the content and excerpt.' }),
  title: t.string({ required: false, description: 'Title (HTML).' }),
  content: t.string({ required: false, description: 'Body (HTML or blocks).' }),
  excerpt: t.string({ required: false, description: 'Summary.' }),
  author: t.int({ required: false, description: 'Author id.' }),
  featuredMedia: t.int({ required: false, description: 'Featured image id; 0 for none.' }),
  commentStatus: t.string({ required: false, description: 'open or closed.' }),
  pingStatus: t.string({ required: false, description: 'open or closed.' }),
  meta: t.field({ type: PostMetaInput, required: false, description: 'Registered meta values.' }),
  template: t.string({ required: false, description: 'Theme template; empty for the default.' }),
});

export const PostInput = builder.inputType('PostInput', {
  description: 'Writable fields of a post; omitted fields keep their value (or get their default on create).',
  fields: (t) => ({
    ...common(t),
    format: t.string({ required: false, description: 'standard, aside, chat, gallery, link, image, quote, status, video or audio.' }),
    sticky: t.boolean({ required: false, description: 'Keep at the top of the front page.' }),
    categories: t.intList({ required: false, description: 'Category ids (the default category when none).' }),
    tags: t.intList({ required: false, description: 'Tag ids.' }),
  }),
});

export const PageInput = builder.inputType('PageInput', {
  description: 'Writable fields of a page; omitted fields keep their value (or get their default on create).',
  fields: (t) => ({
    ...common(t),
    parent: t.int({ required: false, description: 'Parent page id; 0 for none.' }),
    menuOrder: t.int({ required: false, description: 'Position among sibling pages.' }),
  }),
});
