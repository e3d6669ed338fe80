import { describe, expect, it } from 'vitest';
import { RETRY, retryOptimistic, retryOptimisticOr, rollbackOn } from './optimistic.ts';

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

describe('retryOptimisticOr', () => {
  it('returns the first settled round', async () => {
    const result = await retryOptimisticOr(
      3,
      () => 'gave up',
      async (attempt) => (attempt === 0 ? RETRY : 'settled'),
    );
    expect(result).toBe('settled');
  });

  it('settles on giveUp() after the last attempt instead of failing', async () => {
    let rounds = 0;
    const result = await retryOptimisticOr(
      4,
      () => false,
      async () => {
        rounds += 1;
        return RETRY;
      },
    );
    expect(result).toBe(false);
    expect(rounds).toBe(4);
  });
});

describe('rollbackOn', () => {
  class Conflict extends Error {}
  class Other extends Error {}

  it('returns what the work returns', async () => {
    expect(await rollbackOn(Conflict, async () => 42)).toBe(42);
  });

  it('turns the named error (and its subclasses) into null', async () => {
    class Narrower extends Conflict {}
    expect(
      await rollbackOn(Conflict, async () => {
        throw new Conflict();
      }),
    ).toBeNull();
    expect(
      await rollbackOn(Conflict, async () => {
        throw new Narrower();
      }),
    ).toBeNull();
  });

  it('lets any other error through', async () => {
    const run = rollbackOn(Conflict, async () => {
      throw new Other('not a conflict');
    });
    await expect(run).rejects.toThrow('not a conflict');
  });
});
