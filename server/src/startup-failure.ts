import { ConfigError } from './config.ts';

/** Error codes of a dependency that cannot be reached or refuses us: the operator's to fix, not a bug. */
const OPERATIONAL_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EACCES',
  'EADDRINUSE',
  'EADDRNOTAVAIL',
  'EROFS',
  'ENOSPC',
  'ERR_INVALID_URL',
]);

/**
 * The one line to print when start-up fails for a reason the operator can fix (a wrong setting, a
 * database or Redis that cannot be reached, a port in use), or null for a real bug, whose stack trace
 * is worth printing. Messages that start with a variable's name (`REDIS_URL: …`) say what to change.
 */
export function describeStartupFailure(e: unknown): string | null {
  if (!(e instanceof Error)) return null;
  if (e instanceof ConfigError) return e.message;
  // A message that names a variable; not an errno message (`EISDIR: …`), which only looks like one.
  if (/^[A-Z][A-Z0-9_]+: /.test(e.message) && !(e as NodeJS.ErrnoException).code) return e.message;
  for (let cause: unknown = e; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code && OPERATIONAL_CODES.has(code)) return e.message;
  }
  return null;
}
