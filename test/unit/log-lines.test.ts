// The log's batching: lines are encoded into one buffer and handed over in chunks, in order, by
// size, by time or on demand; a chunk once handed over is never changed afterwards.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchedLines } from '../../src/log.js';

afterEach(() => { vi.useRealTimers(); });

function collect(o?: Parameters<typeof batchedLines>[1]) {
  const chunks: Buffer[] = [];
  const copies: string[] = [];
  const lines = batchedLines((chunk) => { chunks.push(chunk); copies.push(chunk.toString('utf8')); }, o);
  return { chunks, copies, lines };
}

describe('batchedLines', () => {
  it('hands over nothing until the delay, then every line in order, as UTF-8', () => {
    vi.useFakeTimers();
    const { copies, lines } = collect({ delayMs: 20 });
    lines.write('{"a":1}\n');
    lines.write('{"path":"/café/日本/😀"}\n');
    expect(copies).toEqual([]);
    vi.advanceTimersByTime(19);
    expect(copies).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(copies).toEqual(['{"a":1}\n{"path":"/café/日本/😀"}\n']);
    vi.advanceTimersByTime(100);
    expect(copies).toHaveLength(1);
  });

  it('hands over at the size mark without waiting, and a line too long for the buffer on its own', () => {
    vi.useFakeTimers();
    const { copies, lines } = collect({ size: 128, flushAt: 32, delayMs: 20 });
    lines.write('x'.repeat(20));
    expect(copies).toEqual([]);
    lines.write('y'.repeat(15)); // 35 bytes: past the mark
    expect(copies).toEqual(['x'.repeat(20) + 'y'.repeat(15)]);
    lines.write('z'.repeat(5));
    lines.write('é'.repeat(50)); // up to 150 bytes: the 5 go first, then this line alone
    expect(copies).toEqual(['x'.repeat(20) + 'y'.repeat(15), 'z'.repeat(5), 'é'.repeat(50)]);
  });

  it('flush() hands over what is pending at once and clears the timer', () => {
    vi.useFakeTimers();
    const { copies, lines } = collect();
    lines.write('one\n');
    lines.flush();
    lines.flush();
    expect(copies).toEqual(['one\n']);
    vi.advanceTimersByTime(1000);
    expect(copies).toEqual(['one\n']);
  });

  it('never writes again into a chunk it handed over', () => {
    vi.useFakeTimers();
    const { chunks, copies, lines } = collect({ size: 64, flushAt: 32 });
    for (let i = 0; i < 20; i++) lines.write(`line ${String(i).padStart(2, '0')} ........\n`);
    lines.flush();
    expect(chunks.map((c) => c.toString('utf8'))).toEqual(copies);
    expect(copies.join('')).toBe(Array.from({ length: 20 }, (_, i) => `line ${String(i).padStart(2, '0')} ........\n`).join(''));
  });
});
