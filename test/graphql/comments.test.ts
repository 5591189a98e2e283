// Comments over /graphql follow the REST rules: the same service, codes and visibility; the
// Comment type is a Node with its relations (post, parent, author, replies), and content types
// carry their comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { expectGqlError } from '../helpers/gql.js';

let site: TestSite;
let post: any, authorsPost: any;
const CREATE = 'mutation($input: CommentInput!) { createComment(input: $input) { id databaseId status authorName content { raw rendered } } }';

beforeAll(async () => {
  site = await createTestSite();
  post = await site.createPost({ title: 'Talk about it', status: 'publish' });
  authorsPost = await site.createPost({ title: 'Mine', status: 'publish' }, 'author');
});
afterAll(async () => { await site?.close(); });

describe('comments over GraphQL', () => {
  let top: number, reply: number, held: number;

  it('creates comments with the REST rules and codes', async () => {
    expectGqlError(await site.gql(CREATE, { input: { post: post.id, content: 'Anonymous?', authorName: 'A', authorEmail: 'a@example.test' } }), 401, 'rest_comment_login_required');
    expectGqlError(await site.gql(CREATE, { input: { post: post.id, content: '' } }, { as: 'editor' }), 400, 'rest_comment_content_invalid');
    expectGqlError(await site.gql(CREATE, { input: { post: post.id, content: 'Approve', status: 'approved' } }, { as: 'subscriber' }), 403, 'rest_comment_invalid_status');
    const made = await site.gql(CREATE, { input: { post: post.id, content: 'Top of the thread' } }, { as: 'editor' });
    expect(made.errors).toBeUndefined();
    expect(made.data.createComment).toMatchObject({ status: 'approved', authorName: 'editor1', content: { raw: 'Top of the thread', rendered: '<p>Top of the thread</p>\n' } });
    top = made.data.createComment.databaseId;
    expect(Buffer.from(made.data.createComment.id, 'base64url').toString()).toBe(`Comment:${top}`);
    const answered = await site.gql(CREATE, { input: { post: post.id, parent: top, content: 'A reply' } }, { as: 'administrator' });
    reply = answered.data.createComment.databaseId;
    const sub = await site.gql(CREATE, { input: { post: post.id, content: 'Held for now' } }, { as: 'subscriber' });
    expect(sub.data.createComment.status).toBe('hold');
    held = sub.data.createComment.databaseId;
  });

  it('reads a comment with its relations, private fields null for readers', async () => {
    const query = 'query($id: Int!) { comment(id: $id) { databaseId authorEmail authorIp parent { node { databaseId } } post { node { ... on Post { databaseId title { rendered } } } } author { node { databaseId } } replies { nodes { databaseId } } } }';
    const anon = await site.gql(query, { id: top });
    expect(anon.errors).toBeUndefined();
    expect(anon.data.comment).toMatchObject({ databaseId: top, authorEmail: null, authorIp: null, parent: null, post: { node: { databaseId: post.id } }, replies: { nodes: [{ databaseId: reply }] } });
    // The editor has published nothing: not a public author, so anonymous readers do not get the user.
    expect(anon.data.comment.author).toBeNull();
    const editor = await site.gql(query, { id: reply }, { as: 'editor' });
    expect(editor.data.comment.authorEmail).toMatch(/@/);
    expect(editor.data.comment).toMatchObject({ parent: { node: { databaseId: top } }, author: { node: { databaseId: site.users.administrator.id } } });
    expectGqlError(await site.gql(query, { id: held }), 401, 'rest_cannot_read');
    expectGqlError(await site.gql(query, { id: 999999 }), 404, 'rest_comment_invalid_id');
  });

  it('finds a comment by its global id', async () => {
    const id = Buffer.from(`Comment:${top}`).toString('base64url');
    const res = await site.gql('query($id: ID!) { node(id: $id) { __typename id ... on Comment { databaseId } } }', { id });
    expect(res.data.node).toEqual({ __typename: 'Comment', id, databaseId: top });
    const hidden = await site.gql('query($id: ID!) { node(id: $id) { id } }', { id: Buffer.from(`Comment:${held}`).toString('base64url') });
    expect(hidden.data.node).toBeNull();
  });

  it('lists comments as a connection with cursors, and on their item', async () => {
    const page = async (after: string | null) => (await site.gql('query($after: String, $post: [Int!]) { comments(first: 1, after: $after, where: { post: $post }, order: ASC) { totalCount pageInfo { hasNextPage endCursor } nodes { databaseId } } }', { after, post: [post.id] })).data.comments;
    const first = await page(null);
    expect(first).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true }, nodes: [{ databaseId: top }] });
    const second = await page(first.pageInfo.endCursor);
    expect(second).toMatchObject({ pageInfo: { hasNextPage: false }, nodes: [{ databaseId: reply }] });
    expectGqlError(await site.gql('{ comments(where: { status: "hold" }) { nodes { databaseId } } }'), 401, 'rest_forbidden_param');
    const onItem = await site.gql('query($id: Int!) { post(id: $id) { comments { nodes { databaseId parent { node { databaseId } } } } } }', { id: post.id });
    expect(onItem.data.post.comments.nodes).toEqual([{ databaseId: top, parent: null }, { databaseId: reply, parent: { node: { databaseId: top } } }]);
    const asEditor = await site.gql('query($id: Int!) { post(id: $id) { comments { nodes { databaseId } } } }', { id: post.id }, { as: 'editor' });
    expect(asEditor.data.post.comments.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual([top, reply, held]);
    const paged = await site.gql('query($post: [Int!]) { commentList(filter: { post: $post }, perPage: 1) { total totalPages nodes { databaseId } } }', { post: [post.id] });
    expect(paged.data.commentList).toEqual({ total: 2, totalPages: 2, nodes: [{ databaseId: reply }] });
  });

  it('moderates through updateComment, for moderators and the item\'s author only', async () => {
    const UPDATE = 'mutation($id: Int!, $input: CommentInput!) { updateComment(id: $id, input: $input) { databaseId status } }';
    const c = (await site.gql(CREATE, { input: { post: authorsPost.id, content: 'On the author\'s post', status: 'hold' } }, { as: 'administrator' })).data.createComment.databaseId;
    expectGqlError(await site.gql(UPDATE, { id: c, input: { status: 'approved' } }, { as: 'contributor' }), 403, 'rest_cannot_edit');
    expect((await site.gql(UPDATE, { id: c, input: { status: 'approved' } }, { as: 'author' })).data.updateComment.status).toBe('approved');
    expect((await site.gql(UPDATE, { id: held, input: { status: 'spam' } }, { as: 'editor' })).data.updateComment.status).toBe('spam');
  });

  it('counts comments per status for those who may edit posts', async () => {
    const counts = await site.gql('query($post: Int) { commentCounts(post: $post) { approved hold spam trash postTrashed all totalComments } }', { post: post.id }, { as: 'editor' });
    expect(counts.errors).toBeUndefined();
    expect(counts.data.commentCounts).toEqual({ approved: 2, hold: 0, spam: 1, trash: 0, postTrashed: 0, all: 2, totalComments: 3 });
    expectGqlError(await site.gql('{ commentCounts { all } }', {}, { as: 'subscriber' }), 403, 'rest_forbidden');
  });

  it('trashes and deletes', async () => {
    const c = (await site.gql(CREATE, { input: { post: post.id, content: 'Short-lived' } }, { as: 'editor' })).data.createComment.databaseId;
    const trashed = await site.gql('mutation($id: Int!) { trashComment(id: $id) { status } }', { id: c }, { as: 'editor' });
    expect(trashed.data.trashComment.status).toBe('trash');
    expectGqlError(await site.gql('mutation($id: Int!) { trashComment(id: $id) { status } }', { id: c }, { as: 'editor' }), 410, 'rest_already_trashed');
    const gone = await site.gql('mutation($id: Int!) { deleteComment(id: $id) { deleted previous { databaseId status } } }', { id: c }, { as: 'editor' });
    expect(gone.data.deleteComment).toEqual({ deleted: true, previous: { databaseId: c, status: 'trash' } });
    expectGqlError(await site.gql('mutation($id: Int!) { deleteComment(id: $id) { deleted } }', { id: top }, { as: 'author' }), 403, 'rest_cannot_delete');
  });
});
