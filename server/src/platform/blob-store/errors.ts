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

/** Runs a store call; any failure becomes a StoreUnavailableError naming the store and the step. */
export async function remote<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof StoreUnavailableError) throw e;
    throw new StoreUnavailableError(`${what}: ${e instanceof Error ? e.message : String(e)}`, e);
  }
}
