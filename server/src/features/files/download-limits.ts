import type { ServerResponse } from 'node:http';
import { DOWNLOADS_RETRY_AFTER_SECONDS, securityTexts } from '@guildhall/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientAddressKey } from '../../platform/client-address.ts';
import { fail } from '../../platform/errors.ts';
import type { DownloadWatch } from '../../platform/transfer/index.ts';

/**
 * DOWNLOADS_PER_USER, DOWNLOADS_PER_ADDRESS, DOWNLOADS_MAX, DOWNLOAD_IDLE_TIMEOUT_MS, DOWNLOADS_QUEUED_PER_USER
 * and DOWNLOAD_QUEUE_WAIT_MS (docs/security.md).
 */
export type DownloadLimits = {
  perUser: number;
  perAddress: number;
  max: number;
  idleTimeoutMs: number;
  /** A member's downloads that may wait for one of their running ones to end (0: refuse at once). */
  queuedPerUser: number;
  /** How long such a download waits before it is refused with 429. */
  queueWaitMs: number;
};

const retryAfter = { 'retry-after': String(DOWNLOADS_RETRY_AFTER_SECONDS) };

/**
 * Downloads of one address (and one member) that may read into the large pooled buffers (6 MiB each,
 * fastest); the address's others get 768 KiB of their own. One browser's first two transfers run at
 * full speed, and a client holding its whole allowance stalled holds about 16 MiB, not 48.
 */
const FAST_PER_CLIENT = 2;

type Who = { userId: string | null; address: string };
export type DownloadSlot = { release: () => void; fast: boolean };
type Waiter = { who: Who; grant: (slot: DownloadSlot) => void };

/**
 * Downloads running on this instance, per member, per client address and in all (issue 26). Each one
 * holds memory (a download buffer, a store connection) until its client has taken the bytes, so the
 * counts bound what downloads can hold whatever clients do: a stranger with a share link gets a few,
 * as a browser needs, and 429 with Retry-After beyond; everyone together at most `max` (503 beyond).
 *
 * A signed-in member's download past their share waits (it holds a socket and nothing else) until one of
 * their own ends, in the order asked: a bulk download of twenty files over one HTTP/2 connection gets all
 * twenty, a few at a time, instead of failing from the seventh on. At most `queuedPerUser` wait per member,
 * each at most `queueWaitMs`; past either, 429 as before. Strangers are never queued.
 */
export class DownloadSlots {
  private readonly limits: DownloadLimits;
  private readonly byUser = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();
  private readonly waitingByUser = new Map<string, number>();
  private readonly waiters: Waiter[] = [];
  private total = 0;

  constructor(limits: DownloadLimits) {
    this.limits = limits;
  }

  /**
   * Takes a slot, waiting for one as said above (rejects with 429/503 when none is to be had). `release`
   * gives it back, once; `fast` says whether this download may use the pooled buffers (among its
   * address's and member's first few). An aborted `signal` (the client went away) stops the wait.
   */
  async take(who: Who, signal?: AbortSignal): Promise<DownloadSlot> {
    const now = this.tryTake(who);
    if (typeof now !== 'string') return now;
    if (now === 'busy') throw fail('DOWNLOADS_BUSY', securityTexts.downloadsBusy, retryAfter);
    const limit = now === 'user' ? this.limits.perUser : this.limits.perAddress;
    const { userId } = who;
    // A client already gone (its signal aborted before this call) would never leave the queue early.
    if (
      userId === null ||
      signal?.aborted ||
      (this.waitingByUser.get(userId) ?? 0) >= this.limits.queuedPerUser
    ) {
      throw tooManyDownloads(limit);
    }
    return new Promise<DownloadSlot>((resolve, reject) => {
      // Runs once, whichever of grant, timer and abort comes first: splice(-1, 1) on a second run
      // would drop another member's waiter from the queue and leave its promise to its timer.
      let ended = false;
      const done = () => {
        if (ended) return false;
        ended = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        bump(this.waitingByUser, userId, -1);
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        return true;
      };
      const waiter: Waiter = {
        who,
        grant: (slot) => {
          if (done()) resolve(slot);
          else slot.release(); // already refused: the slot goes straight back
        },
      };
      const onAbort = () => {
        if (done()) reject(tooManyDownloads(limit));
      };
      const timer = setTimeout(onAbort, this.limits.queueWaitMs);
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      bump(this.waitingByUser, userId, 1);
      this.waiters.push(waiter);
    });
  }

  /** A slot if one is free now, else which limit stands in the way. */
  private tryTake(who: Who): DownloadSlot | 'user' | 'address' | 'busy' {
    const { perUser, perAddress, max } = this.limits;
    const { userId, address } = who;
    if (userId !== null && (this.byUser.get(userId) ?? 0) >= perUser) return 'user';
    if ((this.byAddress.get(address) ?? 0) >= perAddress) return 'address';
    if (this.total >= max) return 'busy';
    const fast =
      (this.byAddress.get(address) ?? 0) < FAST_PER_CLIENT &&
      (userId === null || (this.byUser.get(userId) ?? 0) < FAST_PER_CLIENT);
    if (userId !== null) bump(this.byUser, userId, 1);
    bump(this.byAddress, address, 1);
    this.total += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (userId !== null) bump(this.byUser, userId, -1);
      bump(this.byAddress, address, -1);
      this.total -= 1;
      this.wake();
    };
    return { release, fast };
  }

  /** Hands freed slots to the waiting downloads that fit, oldest first. */
  private wake(): void {
    for (const w of [...this.waiters]) {
      const slot = this.tryTake(w.who);
      if (slot === 'busy') return;
      if (typeof slot !== 'string') w.grant(slot);
    }
  }

  get perUser(): number {
    return this.limits.perUser;
  }

  /** Downloads running now (tests and metrics). */
  get running(): number {
    return this.total;
  }

  /** Downloads waiting for a slot now (tests and metrics). */
  get waiting(): number {
    return this.waiters.length;
  }
}

const tooManyDownloads = (limit: number) =>
  fail('TOO_MANY_DOWNLOADS', securityTexts.tooManyDownloads(limit), retryAfter);

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}

export type { DownloadWatch };

/**
 * Drops a download whose client stopped taking bytes: while the server waits on the client (a write
 * not yet taken by the socket, or a response asking for 'drain'), nothing moving for `idleMs` destroys
 * the response, which closes the connection and lets the sender free its buffers. Time the server
 * spends waiting on its store does not count. Writes are at most a quarter of a MiB (direct-send
 * slices them), so a client taking 4 KiB/s or more is never mistaken for a stalled one at 60 s.
 */
export function watchDownload(raw: ServerResponse, idleMs: number, onDrop: () => void): DownloadWatch {
  let pending = 0;
  let lastMove = Date.now();
  const moved = () => {
    lastMove = Date.now();
  };
  raw.on('drain', moved);
  const timer = setInterval(
    () => {
      if (pending === 0 && !raw.writableNeedDrain) return moved(); // waiting on the store, not the client
      if (Date.now() - lastMove < idleMs) return;
      stop();
      onDrop();
      raw.destroy();
    },
    Math.max(10, Math.min(idleMs / 4, 5_000)),
  );
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    raw.off('drain', moved);
  };
  raw.once('close', stop);
  return {
    writeStarted: () => {
      if (pending === 0) moved();
      pending += 1;
    },
    writeDone: () => {
      pending -= 1;
      moved();
    },
  };
}

/**
 * Starts a response body that holds memory until its client has taken it (a file, a ZIP): takes a
 * download slot for the member and the client's address (waiting for a member's own to end; 429/503 when
 * none is to be had), gives it back when the response closes, and drops the response if its client stops
 * reading.
 */
export async function startDownload(
  downloads: { slots: DownloadSlots; idleTimeoutMs: number },
  request: FastifyRequest,
  reply: FastifyReply,
  member: string | null,
): Promise<DownloadWatch & { fast: boolean }> {
  // A client that goes away while its download waits for a slot stops the wait.
  const gone = new AbortController();
  const onClose = () => gone.abort();
  reply.raw.once('close', onClose);
  // Gone while the route read the database: 'close' has been and will not come again.
  if (reply.raw.destroyed || request.raw.socket?.destroyed) gone.abort();
  const { release, fast } = await downloads.slots.take(
    { userId: member, address: clientAddressKey(request.ip) },
    gone.signal,
  );
  reply.raw.off('close', onClose);
  if (reply.raw.destroyed || request.raw.socket?.destroyed) {
    // Gone between being handed the slot and taking it: nobody reads this answer.
    release();
    throw tooManyDownloads(downloads.slots.perUser);
  }
  reply.raw.once('close', release);
  const watch = watchDownload(reply.raw, downloads.idleTimeoutMs, () =>
    request.log.info({ url: request.routeOptions.url }, 'download dropped: the client stopped reading'),
  );
  return { ...watch, fast };
}
