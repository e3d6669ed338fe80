/** The fetcher refused a destination: it is not a public address, or the URL is not one it fetches. */
export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

/** The request took longer than its time limit. */
export class OutboundTimeoutError extends Error {
  readonly code = 'OUTBOUND_TIMEOUT';
  constructor(message = 'Timed out') {
    super(message);
    this.name = 'OutboundTimeoutError';
  }
}

/** Finds our refusal anywhere in an error's cause chain (undici wraps connect errors). */
export function findRefusal(err: unknown): OutboundRefusedError | null {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof OutboundRefusedError) return current;
    if (typeof current === 'object' && (current as { code?: unknown }).code === 'OUTBOUND_REFUSED') {
      return new OutboundRefusedError(String((current as { message?: unknown }).message));
    }
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
