import { randomUUID } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import type { REST, RESTOptions, ResponseLike } from '@discordjs/rest';
import {
  type APIChannel,
  type APIMessage,
  type APIThreadChannel,
  ChannelType,
  type RESTGetAPIChannelThreadsArchivedPublicResult,
  type RESTGetAPIGuildThreadsResult,
  Routes,
} from 'discord-api-types/v10';
import { remote, StoreUnavailableError, withDeadline } from './errors.ts';
import { BlobMissingError, verifying } from './integrity.ts';
import type { BlobId, BlobStore, ByteRange, ChunkCheck, FileScopedStore } from './types.ts';

export type DiscordStoreOptions = {
  /** The text channel whose threads hold the files. */
  channelId: string;
  botToken: string;
  /** Discord's API base (DISCORD_API_URL, `https://discord.com/api`); the store appends /v10. */
  apiUrl: string;
  /** How long one store call (an 8 MiB attachment, rate-limit waits included) may take; 120 s by default. */
  timeoutMs?: number;
};

/** Discord ids are snowflakes: decimal digits. Anything else never reaches a URL. */
const SNOWFLAKE = /^\d{1,20}$/;
/** Archive threads after a week without activity (Discord's longest); archived threads stay readable. */
const AUTO_ARCHIVE_MINUTES = 10080;
/** Errors Discord answers for a message or channel that is already gone: deleting them is done. */
const GONE_CODES = new Set([10003, 10008]);
/** An attachment URL that stopped working (expired signature): ask Discord for a fresh one this often. */
const URL_RETRIES = 2;

/**
 * The HTTP libraries, loaded when a Discord store is first used: a portal without one (and every
 * start-up) does not pay for @discordjs/rest and its own undici (bench/startup). `node:http` is among
 * them because an ESM import of it loads Node's internal undici too (its WebSocket export).
 */
let libraries:
  | Promise<
      [
        typeof import('@discordjs/rest'),
        typeof import('@discordjs/rest/undiciRequest'),
        typeof import('undici'),
        typeof import('node:http'),
      ]
    >
  | undefined;
const loadLibraries = () => {
  libraries ??= Promise.all([
    import('@discordjs/rest'),
    import('@discordjs/rest/undiciRequest'),
    import('undici'),
    import('node:http'),
  ]);
  return libraries;
};

type ChunkRef = { threadId: string; messageId: string; attachmentId: string };

/** The thread a file's chunks go in is named after the file. */
const fileThreadName = (fileId: string) => `file-${fileId}`;
const NAMED_RE = /^named:([\w-]{1,100})$/;
/**
 * The group id "every thread of the files channel named for this file" (`named:file-<id>`), handed to
 * `onGroup` before the thread is asked for. Discord names a thread's id only once it exists, so a process
 * killed between the answer and recording that id leaves a thread nobody knows; deleting this id finds it
 * by its name.
 */
export const fileThreadGroup = (fileId: string) => `named:${fileThreadName(fileId)}`;
/** A group that is a thread's id, not yet only its name (fileThreadGroup). */
export const isThreadId = (group: string) => SNOWFLAKE.test(group);

/**
 * The spec's chat-platform storage: every file is a thread in one channel (FILES_DISCORD_CHANNEL_ID)
 * and each of its chunks (≤ 8 MiB, under the bot upload limit) a message with one attachment. Blob ids
 * are `<threadId>/<messageId>/<attachmentId>`; a bare `<threadId>` stands for the whole thread (the
 * garbage queue deletes a file's thread in one call). CDN URLs are never kept: Discord signs them and
 * lets them expire, so a read asks for the message (fresh URLs) first, and asks again if the URL has
 * expired by the time it is fetched. Rate limits (429 `retry_after`, the bucket headers, the global
 * limit) are handled by `@discordjs/rest`, which queues and retries.
 */
export class DiscordBlobStore implements BlobStore {
  readonly kind = 'discord';
  /** Two chunks of an upload at once (docs/files.md: more cost memory, and Discord's rate limits cap it). */
  readonly parallelPuts = 2;
  private readonly channelId: string;
  private readonly timeoutMs: number;
  private readonly restOptions: { apiUrl: string; botToken: string };
  private restClient: Promise<REST> | undefined;

  constructor(opts: DiscordStoreOptions) {
    if (!SNOWFLAKE.test(opts.channelId)) throw new Error('FILES_DISCORD_CHANNEL_ID must be a channel id');
    this.channelId = opts.channelId;
    this.timeoutMs = opts.timeoutMs ?? 120_000;
    this.restOptions = { apiUrl: opts.apiUrl, botToken: opts.botToken };
  }

  /** The REST client (with its rate-limit queues), made on first use. */
  private rest(): Promise<REST> {
    this.restClient ??= loadLibraries().then(([{ REST }]) =>
      // An 8 MiB attachment can take far longer than the library's 15 s default on a slow uplink.
      new REST({
        api: this.restOptions.apiUrl,
        version: '10',
        timeout: this.timeoutMs,
        retries: 3,
        makeRequest,
      }).setToken(this.restOptions.botToken),
    );
    return this.restClient;
  }

  forFile(
    fileId: string,
    onGroup?: (threadId: string) => Promise<void>,
    existing?: string | null,
  ): FileScopedStore {
    let threadId: string | null = existing && isThreadId(existing) ? existing : null;
    let thread: Promise<string> | null = threadId ? Promise.resolve(threadId) : null;
    const ensureThread = () => {
      // The thread's name is handed over first: Discord names the id only in its answer, and a process killed
      // before recording it would otherwise leave a thread nobody knows of (fileThreadGroup finds it by name).
      thread ??= Promise.resolve(onGroup?.(fileThreadGroup(fileId)))
        .then(() => this.createThread(fileThreadName(fileId)))
        .then(async (id) => {
          threadId = id;
          await onGroup?.(id);
          return id;
        })
        .catch((e: unknown) => {
          thread = null; // the next chunk tries again
          throw e;
        });
      return thread;
    };
    const scoped: FileScopedStore = {
      kind: this.kind,
      parallelPuts: this.parallelPuts,
      put: (body) => this.deadline('Discord upload', async () => this.postChunk(await ensureThread(), body)),
      get: (id, range, check) => this.get(id, range, check),
      delete: (id) => this.delete(id),
      deleteMany: (ids) => this.deleteMany(ids),
      group: () => threadId,
    };
    return scoped;
  }

  /** A chunk outside any file gets a thread of its own. */
  async put(body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<BlobId> {
    return this.deadline('Discord upload', async () =>
      this.postChunk(await this.createThread(`blob-${randomUUID()}`), body),
    );
  }

  async get(id: BlobId, range?: ByteRange, check?: ChunkCheck): Promise<Readable> {
    const ref = parseChunkId(id);
    let lastStatus = 0;
    for (let attempt = 0; attempt <= URL_RETRIES; attempt++) {
      const url = await this.deadline('Discord message lookup', () => this.freshUrl(ref));
      // With a check the whole chunk is read (it can only be verified whole) and the range cut from it;
      // without one, the CDN serves the range itself.
      const headers: Record<string, string> =
        range && !check ? { range: `bytes=${range.start}-${range.end}` } : {};
      // undici's own timeouts: for the answer's headers, and for each silence of the body after.
      const [, , { request }] = await loadLibraries();
      const res = await remote('Discord CDN', () =>
        request(url, { headers, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs }),
      );
      if (res.statusCode >= 200 && res.statusCode < 300) {
        if (check) return pipeline(res.body, verifying(check, id, range), () => {});
        return res.body;
      }
      lastStatus = res.statusCode;
      res.body.resume();
      res.body.on('error', () => {});
      // 404/403/410 from the CDN: the signature expired between asking and fetching; ask again.
      if (![403, 404, 410].includes(res.statusCode)) break;
    }
    throw new StoreUnavailableError(`Discord CDN answered ${lastStatus} for chunk ${id}`);
  }

  async delete(id: BlobId): Promise<void> {
    if (NAMED_RE.test(id)) {
      if ((await this.deleteMany([id])).length === 0)
        throw new StoreUnavailableError(`could not delete ${id}`);
      return;
    }
    const rest = await this.rest();
    if (SNOWFLAKE.test(id)) return this.ignoreGone(rest.delete(Routes.channel(id)));
    const ref = parseChunkId(id);
    await this.ignoreGone(rest.delete(Routes.channelMessage(ref.threadId, ref.messageId)));
  }

  /**
   * Whole threads first (one call each); chunks of a thread deleted with it need no call of their own.
   * fileThreadGroup ids are looked up by name, with one listing of the channel for all of them.
   */
  async deleteMany(ids: BlobId[]): Promise<BlobId[]> {
    const done: BlobId[] = [];
    const goneThreads = new Set<string>();
    const deleteThread = async (t: string) => {
      if (goneThreads.has(t)) return true;
      try {
        await this.delete(t);
        goneThreads.add(t);
        return true;
      } catch {
        return false; // stays queued
      }
    };
    const named = ids.filter((id) => NAMED_RE.test(id));
    if (named.length > 0) {
      const threads = await this.listThreads().catch(() => null); // null: the names stay queued
      for (const id of threads ? named : []) {
        const name = NAMED_RE.exec(id)![1];
        let all = true;
        for (const t of threads!.filter((x) => x.name === name)) all = (await deleteThread(t.id)) && all;
        if (all) done.push(id);
      }
    }
    for (const t of ids.filter((id) => SNOWFLAKE.test(id))) if (await deleteThread(t)) done.push(t);
    for (const id of ids) {
      if (SNOWFLAKE.test(id) || NAMED_RE.test(id)) continue;
      try {
        if (!goneThreads.has(parseChunkId(id).threadId)) await this.delete(id);
        done.push(id);
      } catch {
        // stays queued
      }
    }
    return done;
  }

  async close(): Promise<void> {
    if (!this.restClient) return; // never used: no client, no sweepers
    const rest = await this.restClient.catch(() => null);
    rest?.clearHashSweeper();
    rest?.clearHandlerSweeper();
  }

  /** The files channel answers the bot (token valid, channel visible). */
  async check(): Promise<void> {
    await (await this.rest()).get(Routes.channel(this.channelId));
  }

  /** A store call with the deadline (withDeadline), failing as StoreUnavailableError. */
  private deadline<T>(what: string, call: () => Promise<T>): Promise<T> {
    return withDeadline(this.timeoutMs, what, () => remote(what, call));
  }

  /** Every thread of the files channel, active and archived (Discord lists them in these two places). */
  private async listThreads(): Promise<APIThreadChannel[]> {
    const rest = await this.rest();
    const channel = (await rest.get(Routes.channel(this.channelId))) as APIChannel;
    const guildId = 'guild_id' in channel ? channel.guild_id : undefined;
    const all: APIThreadChannel[] = [];
    if (guildId) {
      const active = (await rest.get(Routes.guildActiveThreads(guildId))) as RESTGetAPIGuildThreadsResult;
      // Active threads are listed for the whole server; only this channel's are the store's.
      for (const t of active.threads as APIThreadChannel[]) if (t.parent_id === this.channelId) all.push(t);
    }
    let before: string | undefined;
    for (;;) {
      const query = new URLSearchParams({ limit: '100' });
      if (before) query.set('before', before);
      const page = (await rest.get(Routes.channelThreads(this.channelId, 'public'), {
        query,
      })) as RESTGetAPIChannelThreadsArchivedPublicResult;
      all.push(...(page.threads as APIThreadChannel[]));
      const last = page.threads.at(-1);
      const stamp = last && 'thread_metadata' in last ? last.thread_metadata?.archive_timestamp : undefined;
      if (!page.has_more || !stamp) break;
      before = stamp;
    }
    return all;
  }

  private async createThread(name: string): Promise<string> {
    const thread = (await (
      await this.rest()
    ).post(Routes.threads(this.channelId), {
      body: { name, type: ChannelType.PublicThread, auto_archive_duration: AUTO_ARCHIVE_MINUTES },
    })) as APIThreadChannel;
    return thread.id;
  }

  private async postChunk(
    threadId: string,
    body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  ): Promise<BlobId> {
    const parts: Uint8Array[] = [];
    for await (const piece of body) parts.push(piece);
    const size = parts.reduce((n, p) => n + p.length, 0);
    const boundary = `guildhall-${randomUUID()}`;
    const payload = JSON.stringify({ attachments: [{ id: 0, filename: 'chunk.bin' }] });
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n${payload}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="chunk.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const message = (await (
      await this.rest()
    ).post(Routes.channelMessages(threadId), {
      body: new PiecewiseBody([head, ...parts, tail]),
      passThroughBody: true,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    })) as APIMessage;
    return this.confirm(threadId, message, size);
  }

  /** The chunk is stored only if Discord answers with an attachment of exactly the bytes sent. */
  private async confirm(threadId: string, message: APIMessage, size: number): Promise<BlobId> {
    const attachment = message.attachments[0];
    if (!attachment || attachment.size !== size) {
      // Discord accepted something else than what was sent: remove it and fail the chunk.
      await this.rest()
        .then((rest) => this.ignoreGone(rest.delete(Routes.channelMessage(threadId, message.id))))
        .catch(() => {});
      throw new Error(`Discord stored ${attachment?.size ?? 'no'} bytes of a ${size}-byte chunk`);
    }
    return `${threadId}/${message.id}/${attachment.id}`;
  }

  /** Asks Discord for the message: its attachment URLs are freshly signed. */
  private async freshUrl(ref: ChunkRef): Promise<string> {
    const rest = await this.rest();
    const message = (await rest.get(Routes.channelMessage(ref.threadId, ref.messageId)).catch(async (e) => {
      // The message or its thread deleted: the chunk is gone, which Discord says plainly.
      const [{ DiscordAPIError }] = await loadLibraries();
      if (e instanceof DiscordAPIError && (e.status === 404 || GONE_CODES.has(Number(e.code)))) {
        throw new BlobMissingError(
          `Message ${ref.messageId} of chunk ${ref.attachmentId} is gone from Discord`,
        );
      }
      throw e;
    })) as APIMessage;
    const attachment = message.attachments.find((a) => a.id === ref.attachmentId);
    if (!attachment) throw new BlobMissingError(`Attachment ${ref.attachmentId} is missing from Discord`);
    return attachment.url;
  }

  private async ignoreGone(request: Promise<unknown>): Promise<void> {
    try {
      await request;
    } catch (e) {
      const [{ DiscordAPIError }] = await loadLibraries();
      if (e instanceof DiscordAPIError && (e.status === 404 || GONE_CODES.has(Number(e.code)))) return;
      throw e;
    }
  }
}

function parseChunkId(id: BlobId): ChunkRef {
  const [threadId = '', messageId = '', attachmentId = '', extra] = id.split('/');
  if (extra !== undefined || ![threadId, messageId, attachmentId].every((s) => SNOWFLAKE.test(s))) {
    throw new Error(`Not a Discord chunk id: ${JSON.stringify(id.slice(0, 80))}`);
  }
  return { threadId, messageId, attachmentId };
}

/**
 * A multipart body kept as its pieces (framing, the caller's chunk, framing) and sent without joining
 * them: a fresh stream over the same pieces for every attempt (a 429 sends it again). The library's
 * FormData path copies each chunk into a new Blob whose native memory the garbage collector does not
 * count, and the server's RSS grew by 200 MiB over 32 chunks that way; this path copies nothing.
 */
class PiecewiseBody {
  readonly pieces: Uint8Array[];
  readonly length: number;
  constructor(pieces: Uint8Array[]) {
    this.pieces = pieces;
    this.length = pieces.reduce((n, p) => n + p.length, 0);
  }
}

/** @discordjs/rest's request strategy, except that a PiecewiseBody streams instead of being joined. */
const makeRequest: RESTOptions['makeRequest'] = async (url, init) => {
  const [, { makeRequest: undiciMakeRequest }, { Headers, request }, { STATUS_CODES }] =
    await loadLibraries();
  const body = init.body as unknown;
  if (!(body instanceof PiecewiseBody))
    return undiciMakeRequest(url, init as Parameters<typeof undiciMakeRequest>[1]);
  const res = await request(url, {
    method: (init.method ?? 'POST') as 'POST',
    headers: { ...(init.headers as Record<string, string>), 'content-length': String(body.length) },
    body: Readable.from(body.pieces, { objectMode: false }),
    signal: init.signal ?? undefined,
  });
  return {
    body: res.body,
    arrayBuffer: () => res.body.arrayBuffer(),
    json: () => res.body.json(),
    text: () => res.body.text(),
    get bodyUsed() {
      return res.body.bodyUsed;
    },
    headers: new Headers(res.headers as Record<string, string>),
    status: res.statusCode,
    statusText: STATUS_CODES[res.statusCode] ?? '',
    ok: res.statusCode >= 200 && res.statusCode < 300,
  } as unknown as ResponseLike;
};
