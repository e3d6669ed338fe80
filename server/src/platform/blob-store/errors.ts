import { BlobMissingError } from './integrity.ts';

/**
 * A remote store (S3, Discord) failed or refused: the service is down, unreachable, misconfigured or
 * rate-limited past our retries. The files feature answers 503 for it instead of a bare 500.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * Runs a store call; any failure becomes a StoreUnavailableError naming the store and the step, except a
 * blob the store says is not there (BlobMissingError): that is an answer, not an outage.
 */
export async function remote<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof StoreUnavailableError || e instanceof BlobMissingError) throw e;
    throw new StoreUnavailableError(`${what}: ${e instanceof Error ? e.message : String(e)}`, e);
  }
}

/**
 * Runs a store call with a deadline: past `ms` it fails as StoreUnavailableError (and `abort` is told,
 * so the request stops), whatever the client library is doing meanwhile (a rate-limit wait, a retry).
 * A frozen service then costs a member one timeout, not an upload that never answers.
 */
export async function withDeadline<T>(
  ms: number,
  what: string,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new StoreUnavailableError(`${what}: no answer within ${ms} ms`));
    }, ms);
  });
  const work = call(controller.signal);
  work.catch(() => {}); // settles after the deadline won: nothing waits for it any more
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
