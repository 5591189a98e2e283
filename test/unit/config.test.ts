import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig, workerHeapMb, workerSemiSpaceMb } from '../../src/config.js';

describe('loadConfig', () => {
  it('reads WORKER_HEAP_MB: 512 by default or when not a number, 0 for none, at least 128', () => {
    expect(loadConfig({}).workerHeapMb).toBe(512);
    expect(loadConfig({ WORKER_HEAP_MB: '1024' }).workerHeapMb).toBe(1024);
    expect([undefined, '', ' ', 'lots', '-5'].map(workerHeapMb)).toEqual([512, 512, 512, 512, 512]);
    expect(['0', '64', '300.7'].map(workerHeapMb)).toEqual([0, 128, 300]);
  });

  it('reads WORKER_SEMI_SPACE_MB: 8 by default or when not a number, 0 for none, 1 to 64', () => {
    expect(loadConfig({}).workerSemiSpaceMb).toBe(8);
    expect(loadConfig({ WORKER_SEMI_SPACE_MB: '16' }).workerSemiSpaceMb).toBe(16);
    expect([undefined, '', 'big', '-1'].map(workerSemiSpaceMb)).toEqual([8, 8, 8, 8]);
    expect(['0', '0.5', '4.9', '500'].map(workerSemiSpaceMb)).toEqual([0, 1, 4, 64]);
  });

  it('keeps 16 MiB of cached answers per process by default', () => {
    expect(loadConfig({}).cacheMaxBytes).toBe(16 * 2 ** 20);
    expect(loadConfig({ CACHE_MAX_BYTES: '1000000' }).cacheMaxBytes).toBe(1_000_000);
  });

  it('defaults WORKERS to the number of cores', () => {
    expect(loadConfig({}).workers).toBe(availableParallelism());
  });

  it('takes WORKERS from the environment, at least one', () => {
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: '-2' }).workers).toBe(1);
  });
});
