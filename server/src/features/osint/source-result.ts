import type { OsintSource, SourceRisk } from '@guildhall/common';
import { findRefusal, OutboundTimeoutError } from '../../platform/outbound/index.ts';

export function source(
  name: string,
  status: string,
  data: unknown,
  risk: SourceRisk = 'none',
  url: string | null = null,
): OsintSource {
  return { name, status, data, risk, url };
}

/**
 * Runs one source under a time limit. Its outcome is one of three: a result, "Refused" (the fetcher
 * would not reach the address), or "Unknown" (timed out or failed) — never a guess.
 */
export async function runSource(
  name: string,
  timeoutMs: number,
  task: (signal: AbortSignal) => Promise<OsintSource | OsintSource[]>,
): Promise<OsintSource[]> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new OutboundTimeoutError(`Timed out after ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
  });
  try {
    const result = await Promise.race([task(controller.signal), timeout]);
    return Array.isArray(result) ? result : [result];
  } catch (err) {
    const refusal = findRefusal(err);
    if (refusal) return [source(name, 'Refused', { error: refusal.message })];
    const message = err instanceof OutboundTimeoutError ? err.message : describe(err);
    return [source(name, 'Unknown', { error: message })];
  } finally {
    clearTimeout(timer);
  }
}

function describe(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'ENODATA') return 'Name does not resolve';
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (code === 'ETIMEOUT') return 'DNS timed out';
  return err instanceof Error ? err.message : 'Failed';
}
