import { createHash } from 'node:crypto';

/** A Lua script with its SHA-1, so it can be called by hash and sent in full only when Redis lacks it. */
export type LuaScript = { source: string; sha1: string };

/** Runs a script atomically on Redis with the given keys and arguments and returns its raw reply. */
export type RunScript = (script: LuaScript, keys: string[], args: string[]) => Promise<unknown>;

/** The part of a node-redis client that running scripts needs (a narrow type, so tests can fake it). */
export type ScriptClient = {
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
};

export function defineLua(source: string): LuaScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * EVALSHA first; on NOSCRIPT (a fresh or flushed Redis) EVAL, which also caches the script for next time.
 * Scripts are what make each check-and-count a single atomic step shared by every instance.
 */
export function scriptRunner(client: ScriptClient): RunScript {
  return async (script, keys, args) => {
    const options = { keys, arguments: args };
    try {
      return await client.evalSha(script.sha1, options);
    } catch (e) {
      if (!(e instanceof Error && e.message.startsWith('NOSCRIPT'))) throw e;
      return client.eval(script.source, options);
    }
  };
}
