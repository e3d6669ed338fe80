/**
 * Calls `send` with the latest value `delayMs` after the last `push` (the equalizer is sent 300 ms after
 * the last change, portal-tools §9), so dragging a slider through ten values makes one request.
 */
export function createDebouncer<T>(delayMs: number, send: (value: T) => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: { value: T } | undefined;
  return {
    push(value: T) {
      pending = { value };
      clearTimeout(timer);
      timer = setTimeout(() => {
        const p = pending;
        pending = undefined;
        if (p) send(p.value);
      }, delayMs);
    },
    /** True while a value waits to be sent. */
    isPending: () => pending !== undefined,
    /** Drops a waiting value (unmount, or the song ended). */
    cancel() {
      clearTimeout(timer);
      pending = undefined;
    },
  };
}
