import { randomUUID } from 'node:crypto';
import { type ErrorCode, MUSIC_HANDOVER_TEXT } from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import { createClient } from 'redis';
import { fail, HttpError } from '../../platform/errors.ts';
import { closeRedis, throttledRedisWarnings } from '../../platform/redis-helpers.ts';

/** A command as it travels to the holder, and its answer back (correlated by id). */
/** `missing`: the arguments that were undefined (JSON would turn them into null: a different value). */
type Request = { id: string; from: string; method: string; args: unknown[]; missing: number[] };
type Reply =
  | { id: string; ok: true; result: unknown }
  | { id: string; ok: false; code: ErrorCode; message: string };
/** What instances tell each other about the lease: a holder released it (take it now) or took it. */
export type LeaseNews = { kind: 'released' | 'acquired'; instance: string };

export type Forwarder = {
  /** Runs `method` on the holder and returns its result, or throws its error (same code and status). */
  call(holder: string, method: string, args: unknown[]): Promise<unknown>;
  /** Answers the commands sent to this instance (only the holder's are sent here). */
  serve(handler: (method: string, args: unknown[]) => Promise<unknown>): void;
  announce(news: LeaseNews): void;
  onNews(listener: (news: LeaseNews) => void): void;
  close(): Promise<void>;
};

/**
 * Request/response between instances over Redis pub/sub (the realtime fan-out's Redis, with clients of
 * its own): a command goes to the holder's own channel with a correlation id and this instance's reply
 * channel; the answer is the holder's result or its error. Nobody listening on the holder's channel (it
 * died or stopped) or no answer within `timeoutMs` is the 503 of a handover, never a hang.
 */
export async function connectForwarder(o: {
  url: string;
  prefix: string;
  instanceId: string;
  log: FastifyBaseLogger;
  timeoutMs: number;
}): Promise<Forwarder> {
  const channel = (kind: string, id?: string) => `${o.prefix}:music:${kind}${id ? `:${id}` : ''}`;
  const pub = createClient({ url: o.url, socket: { connectTimeout: 10_000 } });
  const sub = pub.duplicate();
  const report = throttledRedisWarnings(o.log, 'music');
  pub.on('error', (err: unknown) => report(err, 'forwarding commands (publisher)'));
  sub.on('error', (err: unknown) => report(err, 'forwarding commands (subscriber)'));
  await Promise.all([pub.connect(), sub.connect()]);

  const pending = new Map<string, { resolve: (r: Reply) => void; timer: NodeJS.Timeout }>();
  let handler: ((method: string, args: unknown[]) => Promise<unknown>) | null = null;
  const newsListeners: ((n: LeaseNews) => void)[] = [];
  const publish = (to: string, message: unknown) =>
    pub.publish(to, JSON.stringify(message)).catch((err: unknown) => {
      report(err, 'forwarding commands');
      return 0;
    });

  await sub.subscribe(channel('reply', o.instanceId), (raw) => {
    const reply = JSON.parse(raw) as Reply;
    const waiting = pending.get(reply.id);
    if (!waiting) return; // answered after its time ran out
    pending.delete(reply.id);
    clearTimeout(waiting.timer);
    waiting.resolve(reply);
  });
  await sub.subscribe(channel('to', o.instanceId), (raw) => {
    const request = JSON.parse(raw) as Request;
    const answer = async (): Promise<Reply> => {
      if (!handler)
        return { id: request.id, ok: false, code: 'BOT_RECONNECTING', message: MUSIC_HANDOVER_TEXT };
      try {
        const args = request.args.map((a, i) => (request.missing.includes(i) ? undefined : a));
        return { id: request.id, ok: true, result: await handler(request.method, args) };
      } catch (err) {
        if (err instanceof HttpError)
          return { id: request.id, ok: false, code: err.code, message: err.message };
        o.log.error({ err, method: request.method }, 'music: a forwarded command failed');
        return { id: request.id, ok: false, code: 'INTERNAL', message: 'Internal Server Error' };
      }
    };
    void answer().then((reply) => publish(channel('reply', request.from), reply));
  });
  await sub.subscribe(channel('lease'), (raw) => {
    const news = JSON.parse(raw) as LeaseNews;
    if (news.instance === o.instanceId) return;
    for (const l of newsListeners) l(news);
  });

  return {
    async call(holder, method, args) {
      const id = randomUUID();
      const reply = new Promise<Reply>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve({ id, ok: false, code: 'BOT_RECONNECTING', message: MUSIC_HANDOVER_TEXT });
        }, o.timeoutMs);
        pending.set(id, { resolve, timer });
      });
      const missing = args.flatMap((a, i) => (a === undefined ? [i] : []));
      const request: Request = { id, from: o.instanceId, method, args, missing };
      const receivers = await publish(channel('to', holder), request);
      if (receivers === 0) {
        // The holder is gone (or Redis is): a handover, answered at once.
        const waiting = pending.get(id);
        if (waiting) {
          clearTimeout(waiting.timer);
          pending.delete(id);
        }
        throw fail('BOT_RECONNECTING', MUSIC_HANDOVER_TEXT);
      }
      const answer = await reply;
      if (answer.ok) return answer.result;
      throw fail(answer.code, answer.message);
    },
    serve(h) {
      handler = h;
    },
    announce(news) {
      void publish(channel('lease'), news);
    },
    onNews(l) {
      newsListeners.push(l);
    },
    async close() {
      handler = null;
      for (const [id, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.resolve({ id, ok: false, code: 'BOT_RECONNECTING', message: MUSIC_HANDOVER_TEXT });
      }
      pending.clear();
      await Promise.allSettled([closeRedis(pub), closeRedis(sub)]);
    },
  };
}
