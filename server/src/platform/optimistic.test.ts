import { describe, expect, it } from 'vitest';
import { RETRY, retryOptimistic } from './optimistic.ts';

describe('retryOptimistic', () => {
  it('runs rounds until one settles, and returns its result', async () => {
    const rounds: number[] = [];
    const result = await retryOptimistic(
      5,
      () => new Error('busy'),
      async (attempt) => {
        rounds.push(attempt);
        return attempt < 2 ? RETRY : 'settled';
      },
    );
    expect(result).toBe('settled');
    expect(rounds).toEqual([0, 1, 2]);
  });

  it('gives up with the exhausted error after the last attempt', async () => {
    let rounds = 0;
    const run = retryOptimistic(
      3,
      () => new Error('busy'),
      async () => {
        rounds += 1;
        return RETRY;
      },
    );
    await expect(run).rejects.toThrow('busy');
    expect(rounds).toBe(3);
  });

  it('lets any other error through at once', async () => {
    const run = retryOptimistic(
      3,
      () => new Error('busy'),
      async () => {
        throw new Error('invalid move');
      },
    );
    await expect(run).rejects.toThrow('invalid move');
  });
});
