import { describe, expect, it } from 'vitest';
import { defineLua, type ScriptClient, scriptRunner } from './lua.ts';

const SCRIPT = defineLua('return 1');

function fakeClient(evalSha: ScriptClient['evalSha']) {
  const calls: string[] = [];
  const client: ScriptClient = {
    evalSha: (sha1, options) => {
      calls.push(`evalSha ${sha1}`);
      return evalSha(sha1, options);
    },
    eval: async (source) => {
      calls.push(`eval ${source}`);
      return 'from eval';
    },
  };
  return { client, calls };
}

describe('scriptRunner', () => {
  it('calls the script by its SHA-1', async () => {
    const { client, calls } = fakeClient(async () => 'from evalSha');
    expect(SCRIPT.sha1).toBe('e0e1f9fabfc9d4800c877a703b823ac0578ff8db'); // sha1('return 1'), as Redis computes it
    expect(await scriptRunner(client)(SCRIPT, ['k'], [])).toBe('from evalSha');
    expect(calls).toEqual([`evalSha ${SCRIPT.sha1}`]);
  });

  it('sends the source when Redis does not know the script yet', async () => {
    const { client, calls } = fakeClient(async () => {
      throw new Error('NOSCRIPT No matching script. Please use EVAL.');
    });
    expect(await scriptRunner(client)(SCRIPT, ['k'], [])).toBe('from eval');
    expect(calls).toEqual([`evalSha ${SCRIPT.sha1}`, 'eval return 1']);
  });

  it('passes other errors on', async () => {
    const { client, calls } = fakeClient(async () => {
      throw new Error('The client is offline');
    });
    await expect(scriptRunner(client)(SCRIPT, ['k'], [])).rejects.toThrow('offline');
    expect(calls).toHaveLength(1);
  });
});
