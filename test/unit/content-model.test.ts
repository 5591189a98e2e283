// The content model file (src/model/config.ts): what a site may declare, and the message a bad
// file stops the start with, naming the key.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContentModel, readContentModel } from '../../src/model/config.js';

const event = { label: 'Events', singularLabel: 'Event' };
const bad = (model: unknown) => {
  try { checkContentModel(model, 'model.json'); } catch (err) { return (err as Error).message; }
  return 'accepted';
};

describe('content model file', () => {
  it('accepts a type with a taxonomy and fields, and attaches the taxonomy to the type', () => {
    const m = checkContentModel({
      types: { event },
      taxonomies: { venue: { label: 'Venues', singularLabel: 'Venue', types: ['event'] } },
      fields: { event: { capacity: { type: 'integer', default: 10 } }, post: { mood: { type: 'string', enum: ['calm', 'loud'] } } },
    });
    expect(m.types!.event.taxonomies).toEqual(['venue']);
  });

  it('names the key of what is wrong', () => {
    expect(bad({ types: { event: { label: 'Events' } } })).toBe('model.json: types.event.singularLabel is required');
    expect(bad({ types: { event: { ...event, colour: 'red' } } })).toBe('model.json: types.event.colour is not a known key');
    expect(bad({ types: { Event: event } })).toMatch(/^model\.json: types\.Event is not a valid name/);
    expect(bad({ types: { event: { ...event, supports: ['title', 'wings'] } } })).toMatch(/^model\.json: types\.event\.supports\.1 must be one of "title"/);
    expect(bad({ types: { event: { ...event, restBase: 'Events!' } } })).toMatch(/^model\.json: types\.event\.restBase must match pattern/);
    expect(bad({ typos: {} })).toBe('model.json: typos is not a known key');
  });

  it('refuses names, bases and addresses the built-in model holds, and references to nothing', () => {
    expect(bad({ types: { post: event } })).toBe('model.json: types.post is a built-in content type');
    expect(bad({ types: { event: { ...event, restBase: 'posts' } } })).toBe('model.json: types.event.restBase "posts" is already used by a built-in route');
    expect(bad({ types: { event: { ...event, permalinkBase: 'category' } } })).toBe('model.json: types.event.permalinkBase "category" is already used by a built-in address');
    expect(bad({ types: { event: { ...event, graphqlSingleName: 'Post' } } })).toBe('model.json: types.event.graphqlSingleName "Post" is already used by post');
    expect(bad({ types: { event: { ...event, taxonomies: ['venue'] } } })).toBe('model.json: types.event.taxonomies.0 names "venue", which is neither built in nor in taxonomies');
    expect(bad({ taxonomies: { venue: { label: 'V', singularLabel: 'V', types: ['post'] } } })).toMatch(/^model\.json: taxonomies\.venue\.types\.0 names "post", which is not a content type of this model/);
    expect(bad({ types: { event, gig: { ...event, restBase: 'event' } } })).toBe('model.json: types.gig.restBase "event" is already used by the type event');
  });

  it('checks fields: their type, enum values and default', () => {
    expect(bad({ fields: { nothing: { a: { type: 'string' } } } })).toMatch(/^model\.json: fields\.nothing names no content type/);
    expect(bad({ fields: { post: { footnotes: { type: 'string' } } } })).toBe('model.json: fields.post.footnotes is a field WordPress registers itself');
    expect(bad({ fields: { post: { n: { type: 'integer', enum: ['a'] } } } })).toBe('model.json: fields.post.n.enum is for string fields only');
    expect(bad({ fields: { post: { n: { type: 'integer', default: 1.5 } } } })).toBe('model.json: fields.post.n.default is not a valid integer');
    expect(bad({ fields: { post: { k: { type: 'string', enum: ['a', 'b'], default: 'c' } } } })).toBe('model.json: fields.post.k.default is not a valid value of its enum');
    expect(bad({ fields: { post: { k: { type: 'string', enum: ['a b'] } } } })).toMatch(/^model\.json: fields\.post\.k\.enum\.0 must match pattern/);
  });

  it('reads a file, and says when it is not there or not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'model-'));
    try {
      const file = join(dir, 'model.json');
      expect(() => readContentModel(file)).toThrow(/content model .*model\.json: cannot be read \(ENOENT\)/);
      writeFileSync(file, '{ "types": ');
      expect(() => readContentModel(file)).toThrow(/is not JSON/);
      writeFileSync(file, JSON.stringify({ types: { event } }));
      expect(readContentModel(file).types!.event.label).toBe('Events');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
