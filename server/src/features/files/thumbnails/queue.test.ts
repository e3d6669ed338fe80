import { describe, expect, test } from 'vitest';
import { JobQueue } from './queue.ts';

/** A job that finishes when told to. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((r) => {
    open = r;
  });
  return { open, done };
}

describe('thumbnail job queue', () => {
  test('runs one job at a time, shares a job between requests for the same file, and refuses past its bound', async () => {
    const queue = new JobQueue<string>(1, 2);
    const first = gate();
    let running = 0;
    let most = 0;
    const job = (name: string, wait: Promise<void>) => async () => {
      running++;
      most = Math.max(most, running);
      await wait;
      running--;
      return name;
    };
    const a = queue.run('a', job('a', first.done));
    const aAgain = queue.run('a', job('never runs', Promise.resolve()));
    const b = queue.run('b', job('b', Promise.resolve()));
    const c = queue.run('c', job('c', Promise.resolve()));
    expect(queue.size).toBe(3); // one running, two waiting
    expect(() => queue.run('d', job('d', Promise.resolve()))).toThrow(/busy/);
    first.open();
    expect(await Promise.all([a, aAgain, b, c])).toEqual(['a', 'a', 'b', 'c']);
    expect(most).toBe(1);
    expect(queue.size).toBe(0);
  });

  test('a failed job frees its slot and is not kept', async () => {
    const queue = new JobQueue<string>(1, 1);
    await expect(queue.run('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run('x', async () => 'ok')).toBe('ok');
  });
});
