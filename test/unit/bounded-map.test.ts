// The bounded map behind the GraphQL document cache: at most its size, the least recently used
// (set or read) leaving first.
import { describe, expect, it } from 'vitest';
import { boundedMap } from '../../gateway/bounded-map.js';

describe('boundedMap', () => {
  it('keeps at most its size, letting the least recently used go first', () => {
    const m = boundedMap<number>(3);
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 3]] as const) m.set(k, v);
    expect(m.get('a')).toBe(1); // a is now the most recent: b goes next
    m.set('d', 4);
    expect(m.size).toBe(3);
    expect(m.get('b')).toBeUndefined();
    expect([m.get('a'), m.get('c'), m.get('d')]).toEqual([1, 3, 4]);
    m.set('c', 30); // setting again refreshes too
    m.set('e', 5);
    expect(m.get('a')).toBeUndefined();
    expect([m.get('c'), m.get('d'), m.get('e'), m.size]).toEqual([30, 4, 5, 3]);
  });
});
