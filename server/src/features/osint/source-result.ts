import type { OsintSource, SourceRisk } from '@guildhall/common';
import { findRefusal, OutboundTimeoutError } from '../../platform/outbound/index.ts';
import type { Rated } from './risk.ts';

/** A source that found something (state `found`), with the rule that set its risk. */
export function source(
  name: string,
  status: string,
  data: unknown,
  risk: SourceRisk | Rated = 'none',
  url: string | null = null,
): OsintSource {
  const rated = typeof risk === 'string' ? { risk, rule: null } : risk;
  return { name, status, data, risk: rated.risk, riskRule: rated.rule, url, state: 'found' };
}

/** A source that checked and found nothing. */
export function nothing(name: string, status: string, data: unknown, url: string | null = null): OsintSource {
  return { name, status, data, risk: 'none', riskRule: null, url, state: 'not_found' };
}

/** A source that could not check: never a reassuring value, always with why. */
export function unchecked(
  name: string,
  status: string,
  reason: string,
  data: unknown = {},
  url: string | null = null,
): OsintSource {
  return { name, status, data, risk: 'none', riskRule: null, url, state: 'could_not_check', reason };
}

/** Texts of a source's failures, for members (the log keeps the technical detail). */
export const SOURCE_FAILURES = {
  timeout: (s: number) => `No answer within ${s} s`,
  refused: 'The address is not a public one, so it was not contacted',
  dnsDown: 'The DNS resolver did not answer, so the records could not be looked up',
  unreachable: 'The source could not be reached',
  badAnswer: 'The source gave an answer that could not be read',
  notConfigured: 'Not configured on this portal',
} as const;

export type SourceLog = (details: { source: string; err: unknown }) => void;

/**
 * Runs one source under a time limit. Its outcome is tri-state: a result (found or not found), or
 * "could not check" (refused, timed out, failed) with a member-facing reason — never a guess. The time
 * limit is a ceiling for the whole source; each request's own limit starts only when it gets its slot
 * (platform/outbound), so a busy queue is not counted against a source's request.
 */
export async function runSource(
  name: string,
  timeoutMs: number,
  task: (signal: AbortSignal) => Promise<OsintSource | OsintSource[]>,
  options: { signal?: AbortSignal; log?: SourceLog } = {},
): Promise<OsintSource[]> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const seconds = Math.round(timeoutMs / 1000);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new OutboundTimeoutError(`Timed out after ${seconds} s`));
    }, timeoutMs);
  });
  try {
    const result = await Promise.race([task(controller.signal), timeout]);
    return Array.isArray(result) ? result : [result];
  } catch (err) {
    options.log?.({ source: name, err });
    if (findRefusal(err)) return [unchecked(name, 'Refused', SOURCE_FAILURES.refused)];
    if (err instanceof OutboundTimeoutError)
      return [unchecked(name, 'Unknown', SOURCE_FAILURES.timeout(seconds))];
    return [unchecked(name, 'Unknown', describe(err))];
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** DNS answers that mean "the resolver did not answer", not "there is nothing". */
export const DNS_FAILURE_CODES = new Set([
  'ESERVFAIL',
  'ETIMEOUT',
  'ECONNREFUSED',
  'EREFUSED',
  'ECANCELLED',
  'EBADRESP',
  'ECONNRESET',
]);

/** A resolver error that means it did not answer (a query's syscall is queryX or getHostByAddr). */
export function isDnsFailure(err: unknown): boolean {
  const { code, syscall } = (err ?? {}) as { code?: string; syscall?: string };
  return (
    !!code &&
    DNS_FAILURE_CODES.has(code) &&
    (code !== 'ECONNREFUSED' || /^query|getHostByAddr/.test(syscall ?? ''))
  );
}

function describe(err: unknown): string {
  const { code } = err as { code?: string };
  if (code === 'ENOTFOUND' || code === 'ENODATA') return 'The name does not exist';
  if (code && isDnsFailure(err)) return SOURCE_FAILURES.dnsDown;
  if (err instanceof SyntaxError) return SOURCE_FAILURES.badAnswer;
  return SOURCE_FAILURES.unreachable;
}
