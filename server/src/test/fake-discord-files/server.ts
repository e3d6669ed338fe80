import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of the parts of Discord the file store uses, written from Discord's API reference (API v10):
 * channels and threads (`POST /channels/{id}/threads` without a message, `DELETE /channels/{id}`),
 * messages with attachments (`POST /channels/{id}/messages` as multipart with `payload_json` and
 * `files[n]`, `GET`/`DELETE /channels/{id}/messages/{id}`), bot authentication, the 429 answer with
 * `retry_after` and the rate-limit headers, and a CDN serving attachments at signed, expiring URLs
 * (`…/attachments/{channel}/{attachment}/{name}?ex=&is=&hm=`, hex seconds and an HMAC, 404 once
 * expired, Range supported). It listens on 127.0.0.1 and is reached only through DISCORD_API_URL.
 */
export type FakeDiscordFilesOptions = {
  botToken?: string;
  /** Answer every n-th API request with 429 (0 = never). */
  rateLimitEvery?: number;
  /** How long an attachment URL stays valid (Discord: about a day). */
  urlTtlMs?: number;
  /** retry_after of the injected 429s, in seconds. */
  retryAfterSeconds?: number;
  /** After this many stored chunk messages, further ones are refused (400), as a failing upload. */
  failUploadsAfter?: number;
};

export type LoggedRequest = { method: string; path: string; status: number; range?: string };

type Attachment = { id: string; filename: string; data: Buffer };
type Message = { id: string; channelId: string; attachments: Attachment[]; timestamp: string };
type Channel = {
  id: string;
  type: number;
  name: string;
  parentId: string | null;
  messages: Map<string, Message>;
};

export type FakeDiscordFiles = {
  /** DISCORD_API_URL for the store (…/api). */
  apiUrl: string;
  cdnUrl: string;
  botToken: string;
  /** A text channel that threads can be made in (each test app gets its own). */
  createChannel(): string;
  /** Threads under a channel, with their chunk messages (tests look at what is stored). */
  threadsOf(channelId: string): { id: string; messages: number; bytes: number }[];
  /** Every chunk still stored under a channel's threads, as the store's ids (thread/message/attachment). */
  blobIdsOf(channelId: string): string[];
  set(options: Partial<FakeDiscordFilesOptions>): void;
  /** Moves the fake's clock on (URLs handed out before then expire as time passes). */
  advanceClock(ms: number): void;
  /** The next n attachment URLs handed out are expired by the time they are used. */
  expireNextUrls(n: number): void;
  log: LoggedRequest[];
  stats: { rateLimited: number; expiredUrls: number; uploads: number; cdnBytes: number };
  close(): Promise<void>;
};

const EPOCH = 1420070400000n;

export async function startFakeDiscordFiles(opts: FakeDiscordFilesOptions = {}): Promise<FakeDiscordFiles> {
  const settings: Required<FakeDiscordFilesOptions> = {
    botToken: opts.botToken ?? `fake-bot-${randomBytes(8).toString('hex')}`,
    rateLimitEvery: opts.rateLimitEvery ?? 0,
    urlTtlMs: opts.urlTtlMs ?? 24 * 60 * 60_000,
    retryAfterSeconds: opts.retryAfterSeconds ?? 0.05,
    failUploadsAfter: opts.failUploadsAfter ?? Number.POSITIVE_INFINITY,
  };
  /** Added to the fake's clock: moving it on expires the URLs already handed out. */
  let clockOffsetMs = 0;
  /** URLs still to hand out already expired (as if the client waited too long before using them). */
  let expiredToIssue = 0;
  const now = () => Date.now() + clockOffsetMs;
  const signingKey = randomBytes(32);
  const channels = new Map<string, Channel>();
  const attachmentsById = new Map<string, { channelId: string; attachment: Attachment }>();
  const log: LoggedRequest[] = [];
  const stats = { rateLimited: 0, expiredUrls: 0, uploads: 0, cdnBytes: 0 };
  let apiRequests = 0;
  let seq = 0n;
  const snowflake = () => String(((BigInt(Date.now()) - EPOCH) << 22n) | (seq++ & 0x3fffffn));

  let base = '';
  const sign = (path: string, ex: number, is: number) =>
    createHmac('sha256', signingKey).update(`${path}|${ex}|${is}`).digest('hex');
  const attachmentUrl = (channelId: string, a: Attachment) => {
    const path = `/attachments/${channelId}/${a.id}/${a.filename}`;
    const is = Math.floor(now() / 1000);
    // Discord's ex and is are hex Unix seconds; ex here is hex milliseconds, so short test lifetimes are exact.
    let exMs = now() + settings.urlTtlMs;
    if (expiredToIssue > 0) {
      expiredToIssue -= 1;
      exMs = now() - 1;
    }
    const ex = exMs.toString(16);
    return `${base}${path}?ex=${ex}&is=${is.toString(16)}&hm=${sign(path, exMs, is)}&`;
  };
  const presentMessage = (m: Message) => ({
    id: m.id,
    type: 0,
    channel_id: m.channelId,
    content: '',
    timestamp: m.timestamp,
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    embeds: [],
    pinned: false,
    author: {
      id: '100000000000000001',
      username: 'guildhall-files',
      discriminator: '0',
      bot: true,
      avatar: null,
    },
    attachments: m.attachments.map((a) => {
      const url = attachmentUrl(m.channelId, a);
      return {
        id: a.id,
        filename: a.filename,
        size: a.data.length,
        content_type: 'application/octet-stream',
        url,
        proxy_url: url.replace('/attachments/', '/proxy/attachments/'),
      };
    }),
  });
  const presentChannel = (c: Channel) => ({
    id: c.id,
    type: c.type,
    name: c.name,
    parent_id: c.parentId,
    guild_id: '300000000000000001',
    thread_metadata: c.parentId
      ? { archived: false, auto_archive_duration: 10080, locked: false }
      : undefined,
  });
  const deleteChannel = (id: string) => {
    const c = channels.get(id);
    if (!c) return false;
    for (const m of c.messages.values()) for (const a of m.attachments) attachmentsById.delete(a.id);
    channels.delete(id);
    for (const child of [...channels.values()].filter((x) => x.parentId === id)) deleteChannel(child.id);
    return true;
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(e), code: 0 }));
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const entry: LoggedRequest = { method: req.method ?? 'GET', path, status: 0 };
    if (req.headers.range) entry.range = req.headers.range;
    log.push(entry);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const error = (status: number, code: number, message: string) => json(status, { message, code });

    if (path.startsWith('/attachments/')) return serveCdn(req, res, url, entry);
    const m = /^\/api\/v10(\/.*)$/.exec(path);
    if (!m) return error(404, 0, '404: Not Found');
    const route = m[1]!;

    if (req.headers.authorization !== `Bot ${settings.botToken}`) return error(401, 0, '401: Unauthorized');
    apiRequests += 1;
    if (settings.rateLimitEvery > 0 && apiRequests % settings.rateLimitEvery === 0) {
      req.resume();
      stats.rateLimited += 1;
      const after = settings.retryAfterSeconds;
      return json(
        429,
        { message: 'You are being rate limited.', retry_after: after, global: false },
        {
          'retry-after': String(Math.max(1, Math.ceil(after))),
          'x-ratelimit-limit': '5',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Date.now() / 1000 + after),
          'x-ratelimit-reset-after': String(after),
          'x-ratelimit-bucket': `fake-${route.split('/')[1] ?? 'x'}`,
          'x-ratelimit-scope': 'user',
        },
      );
    }
    const rateHeaders = {
      'x-ratelimit-limit': '50',
      'x-ratelimit-remaining': '49',
      'x-ratelimit-reset': String(Date.now() / 1000 + 1),
      'x-ratelimit-reset-after': '1',
      'x-ratelimit-bucket': `fake-${route.split('/')[1] ?? 'x'}`,
    };
    const on = (method: string | null, pattern: RegExp) =>
      method === null || req.method === method ? pattern.exec(route) : null;

    const newThread = on('POST', /^\/channels\/(\d+)\/threads$/);
    if (newThread) {
      const r = newThread;
      const parent = channels.get(r[1]!);
      if (!parent || parent.parentId) return error(404, 10003, 'Unknown Channel');
      const body = JSON.parse((await readAll(req)).toString() || '{}') as { name?: string; type?: number };
      if (!body.name || body.name.length > 100) return error(400, 50035, 'Invalid Form Body');
      const thread: Channel = {
        id: snowflake(),
        type: body.type ?? 12,
        name: body.name,
        parentId: parent.id,
        messages: new Map(),
      };
      channels.set(thread.id, thread);
      return json(201, presentChannel(thread), rateHeaders);
    }
    // List Active Guild Threads; List Public Archived Threads (this fake never archives a thread).
    if (on('GET', /^\/guilds\/(\d+)\/threads\/active$/)) {
      const threads = [...channels.values()].filter((c) => c.parentId).map(presentChannel);
      return json(200, { threads, members: [] }, rateHeaders);
    }
    const archived = on('GET', /^\/channels\/(\d+)\/threads\/archived\/public$/);
    if (archived) {
      if (!channels.get(archived[1]!)) return error(404, 10003, 'Unknown Channel');
      return json(200, { threads: [], members: [], has_more: false }, rateHeaders);
    }
    // Get Channel (readiness probes ask for the files channel).
    const channelGet = on('GET', /^\/channels\/(\d+)$/);
    if (channelGet) {
      const c = channels.get(channelGet[1]!);
      if (!c) return error(404, 10003, 'Unknown Channel');
      return json(200, presentChannel(c), rateHeaders);
    }
    const channelDelete = on('DELETE', /^\/channels\/(\d+)$/);
    if (channelDelete) {
      const r = channelDelete;
      const c = channels.get(r[1]!);
      if (!c) return error(404, 10003, 'Unknown Channel');
      deleteChannel(c.id);
      return json(200, presentChannel(c), rateHeaders);
    }
    const newMessage = on('POST', /^\/channels\/(\d+)\/messages$/);
    if (newMessage) {
      const r = newMessage;
      const c = channels.get(r[1]!);
      if (!c) {
        req.resume();
        return error(404, 10003, 'Unknown Channel');
      }
      const raw = await readAll(req);
      if (raw.length > 10 * 1024 * 1024 + 64 * 1024) return error(413, 40005, 'Request entity too large');
      const form = await new Response(raw, {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      }).formData();
      const attachments: Attachment[] = [];
      for (const [key, value] of form.entries()) {
        if (!/^files\[\d+\]$/.test(key) || typeof value === 'string') continue;
        attachments.push({
          id: snowflake(),
          filename: value.name.replace(/[^\w.-]/g, '_') || 'file',
          data: Buffer.from(await value.arrayBuffer()),
        });
      }
      if (attachments.length === 0) return error(400, 50006, 'Cannot send an empty message');
      if (stats.uploads >= settings.failUploadsAfter) return error(400, 50035, 'Invalid Form Body');
      const message: Message = {
        id: snowflake(),
        channelId: c.id,
        attachments,
        timestamp: new Date().toISOString(),
      };
      c.messages.set(message.id, message);
      for (const a of attachments) attachmentsById.set(a.id, { channelId: c.id, attachment: a });
      stats.uploads += 1;
      return json(200, presentMessage(message), rateHeaders);
    }
    const oneMessage = on(null, /^\/channels\/(\d+)\/messages\/(\d+)$/);
    if (oneMessage) {
      const r = oneMessage;
      const c = channels.get(r[1]!);
      if (!c) return error(404, 10003, 'Unknown Channel');
      const message = c.messages.get(r[2]!);
      if (!message) return error(404, 10008, 'Unknown Message');
      if (req.method === 'GET') return json(200, presentMessage(message), rateHeaders);
      if (req.method === 'DELETE') {
        c.messages.delete(message.id);
        for (const a of message.attachments) attachmentsById.delete(a.id);
        entry.status = 204;
        res.writeHead(204, rateHeaders);
        return void res.end();
      }
    }
    return error(404, 0, '404: Not Found');
  }

  function serveCdn(req: http.IncomingMessage, res: http.ServerResponse, url: URL, entry: LoggedRequest) {
    const notAvailable = () => {
      entry.status = 404;
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('This content is no longer available.');
    };
    const r = /^\/attachments\/(\d+)\/(\d+)\/([^/]+)$/.exec(url.pathname);
    const ex = Number.parseInt(url.searchParams.get('ex') ?? '', 16);
    const is = Number.parseInt(url.searchParams.get('is') ?? '', 16);
    const hm = url.searchParams.get('hm') ?? '';
    const expected = sign(url.pathname, ex, is);
    if (!r || hm.length !== expected.length || !timingSafeEqual(Buffer.from(hm), Buffer.from(expected)))
      return notAvailable();
    if (now() > ex) {
      stats.expiredUrls += 1;
      return notAvailable();
    }
    const found = attachmentsById.get(r[2]!);
    if (!found || found.channelId !== r[1]) return notAvailable();
    const data = found.attachment.data;
    let start = 0;
    let end = data.length - 1;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (range) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), end) : end;
    }
    entry.status = range ? 206 : 200;
    res.writeHead(entry.status, {
      'content-type': 'application/octet-stream',
      'content-length': String(end - start + 1),
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${start}-${end}/${data.length}` } : {}),
    });
    stats.cdnBytes += end - start + 1;
    res.end(data.subarray(start, end + 1));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${base}/api`,
    cdnUrl: base,
    botToken: settings.botToken,
    createChannel() {
      const c: Channel = {
        id: snowflake(),
        type: 0,
        name: 'guildhall-files',
        parentId: null,
        messages: new Map(),
      };
      channels.set(c.id, c);
      return c.id;
    },
    threadsOf(channelId) {
      return [...channels.values()]
        .filter((c) => c.parentId === channelId)
        .map((c) => ({
          id: c.id,
          messages: c.messages.size,
          bytes: [...c.messages.values()].reduce(
            (sum, m) => sum + m.attachments.reduce((s, a) => s + a.data.length, 0),
            0,
          ),
        }));
    },
    blobIdsOf(channelId) {
      const ids: string[] = [];
      for (const t of channels.values()) {
        if (t.parentId !== channelId) continue;
        for (const m of t.messages.values())
          for (const a of m.attachments) ids.push(`${t.id}/${m.id}/${a.id}`);
      }
      return ids;
    },
    set(options) {
      Object.assign(settings, options);
    },
    advanceClock(ms) {
      clockOffsetMs += ms;
    },
    expireNextUrls(n) {
      expiredToIssue += n;
    },
    log,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readAll(req: http.IncomingMessage): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}
