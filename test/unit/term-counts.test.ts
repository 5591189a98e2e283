// The term count changes a batch keeps for its end (src/db/deferred-term-counts.ts).
import { describe, expect, it } from 'vitest';
import { DeferredTermCounts } from '../../src/db/deferred-term-counts.js';

describe('deferred term counts', () => {
  it('adds per term, starts again from a recount, and forgets an undone item', () => {
    const counts = new DeferredTermCounts();
    counts.add([1, 2]);
    counts.add([1]);
    expect(counts.pending()).toEqual(new Map([[1, 2], [2, 1]]));
    counts.reset([1]);
    expect(counts.pending()).toEqual(new Map([[2, 1]]));
    const mark = counts.mark();
    counts.add([1, 3]);
    counts.reset([2]);
    expect(counts.pending()).toEqual(new Map([[1, 1], [3, 1]]));
    counts.undo(mark);
    expect(counts.pending()).toEqual(new Map([[2, 1]]));
  });
});
