import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('defaults WORKERS to the number of cores', () => {
    expect(loadConfig({}).workers).toBe(availableParallelism());
  });

  it('takes WORKERS from the environment, at least one', () => {
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: '-2' }).workers).toBe(1);
  });
});
