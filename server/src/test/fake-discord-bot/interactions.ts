import { randomBytes } from 'node:crypto';

/** One answer the bot gave to an interaction, as Discord received it. */
export type RecordedResponse = {
  kind: 'callback' | 'edit' | 'followup' | 'delete';
  /** The callback's type (4 message, 5 deferred message, 6 deferred update, 7 update, 8 autocomplete). */
  type?: number;
  /** The callback's `data`, or the edit's or follow-up's body. */
  body: Record<string, unknown>;
  /** performance.now() when it arrived, and how long after the dispatch. */
  at: number;
  afterMs: number;
  /** What the fake answered (a refused second acknowledgement is 400, code 40060). */
  status: number;
  code?: number;
};

export type FakeInteraction = {
  id: string;
  token: string;
  type: number;
  dispatchedAt: number;
  responses: RecordedResponse[];
  /** The first accepted acknowledgement (callback), if any. */
  ack: () => RecordedResponse | undefined;
  /** What the member ends up seeing: the last edit, else the callback's message, plus follow-ups. */
  original: () => Record<string, unknown> | null;
  followups: () => Record<string, unknown>[];
};

/** A message the bot posted in a channel (`POST /channels/{id}/messages`), with every edit. */
export type PostedMessage = {
  id: string;
  channelId: string;
  body: Record<string, unknown>;
  edits: number;
  deleted: boolean;
};

let lastId = 810_000_000_000_000_000n;
/** A fresh snowflake-shaped id. */
export function nextSnowflake(): string {
  lastId += 1n;
  return String(lastId);
}

type Answer = { status: number; body?: unknown };

/**
 * The interaction side of the fake Discord (developer docs: Receiving and Responding, Application
 * Commands): guild command bulk overwrite, INTERACTION_CREATE payloads, the callback endpoint with its
 * rules (one acknowledgement: a second is 400 with code 40060; past the deadline when one is set: 404
 * with code 10062), the original response's edit and delete, follow-ups, and channel messages.
 */
export class FakeInteractions {
  readonly interactions: FakeInteraction[] = [];
  readonly messages: PostedMessage[] = [];
  /** Every bulk overwrite, per guild, in order (the last is what is registered). */
  readonly commandPuts = new Map<string, Record<string, unknown>[][]>();
  /** Past this (ms after the dispatch) a callback is 10062 Unknown interaction; null: never. */
  ackDeadlineMs: number | null = null;
  /** DM channels the bot opened (`POST /users/@me/channels`): channel id → recipient's user id. */
  readonly dmChannels = new Map<string, string>();
  /**
   * Users whose privacy settings refuse DMs from the bot: opening the channel works, posting in it is
   * 403 with code 50007 (Cannot send messages to this user), as Discord answers.
   */
  readonly dmsRefusedBy = new Set<string>();
  private readonly byToken = new Map<string, FakeInteraction>();
  private readonly registered = new Map<string, Record<string, unknown>[]>();
  private readonly appId: string;
  private readonly author: Record<string, unknown>;

  constructor(appId: string, author: Record<string, unknown>) {
    this.appId = appId;
    this.author = author;
  }

  /** The commands registered now for a guild (seeded stale ones included until an overwrite). */
  commands(guildId: string): Record<string, unknown>[] {
    return this.registered.get(guildId) ?? [];
  }

  seedCommands(guildId: string, names: string[]): void {
    this.registered.set(
      guildId,
      names.map((name) => ({ id: nextSnowflake(), name, description: 'stale', type: 1 })),
    );
  }

  /** Builds the INTERACTION_CREATE payload and records the interaction. */
  create(p: {
    type: number;
    guildId: string;
    channelId: string;
    member: Record<string, unknown>;
    data: Record<string, unknown>;
    message?: Record<string, unknown>;
  }): { payload: Record<string, unknown>; interaction: FakeInteraction } {
    const id = nextSnowflake();
    const token = `interaction.${randomBytes(24).toString('hex')}`;
    const responses: RecordedResponse[] = [];
    const interaction: FakeInteraction = {
      id,
      token,
      type: p.type,
      dispatchedAt: performance.now(),
      responses,
      ack: () => responses.find((r) => r.kind === 'callback' && r.status < 300),
      original: () => {
        const ok = responses.filter((r) => r.status < 300);
        if (ok.some((r) => r.kind === 'delete')) return null;
        const edit = ok.filter((r) => r.kind === 'edit').at(-1);
        if (edit) return edit.body;
        const cb = ok.find((r) => r.kind === 'callback');
        return cb && (cb.type === 4 || cb.type === 7) ? cb.body : null;
      },
      followups: () => responses.filter((r) => r.kind === 'followup' && r.status < 300).map((r) => r.body),
    };
    this.interactions.push(interaction);
    this.byToken.set(token, interaction);
    const payload = {
      id,
      application_id: this.appId,
      type: p.type,
      data: p.data,
      guild_id: p.guildId,
      channel_id: p.channelId,
      channel: {
        id: p.channelId,
        type: 0,
        guild_id: p.guildId,
        name: 'general',
        position: 0,
        permission_overwrites: [],
        nsfw: false,
        topic: null,
        last_message_id: null,
        rate_limit_per_user: 0,
        parent_id: null,
        flags: 0,
      },
      member: { ...p.member, permissions: '2248473465835073', flags: 0 },
      token,
      version: 1,
      app_permissions: '2248473465835073',
      locale: 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': p.guildId },
      context: 0,
      attachment_size_limit: 8_388_608,
      ...(p.message ? { message: p.message } : {}),
    };
    return { payload, interaction };
  }

  /** A message object as Discord returns it. */
  messageObject(
    id: string,
    channelId: string,
    body: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) {
    return {
      id,
      channel_id: channelId,
      author: this.author,
      content: body.content ?? '',
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: body.embeds ?? [],
      components: body.components ?? [],
      pinned: false,
      type: 0,
      flags: body.flags ?? 0,
      ...extra,
    };
  }

  /** The routes that need no bot token (interaction callbacks and webhooks authenticate by the token in the path). */
  handleUnauthenticated(method: string, path: string, body: Record<string, unknown>): Answer | null {
    const callback = /^\/api\/v10\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path);
    if (callback && method === 'POST') {
      const i = this.byToken.get(callback[2] ?? '');
      if (!i || i.id !== callback[1])
        return { status: 404, body: { message: 'Unknown interaction', code: 10062 } };
      const afterMs = performance.now() - i.dispatchedAt;
      const rec = (status: number, code?: number): Answer => {
        i.responses.push({
          kind: 'callback',
          type: Number(body.type),
          body: (body.data as Record<string, unknown>) ?? {},
          at: performance.now(),
          afterMs,
          status,
          ...(code ? { code } : {}),
        });
        return status === 204
          ? { status }
          : {
              status,
              body: {
                message:
                  code === 40060 ? 'Interaction has already been acknowledged.' : 'Unknown interaction',
                code,
              },
            };
      };
      if (i.ack()) return rec(400, 40060);
      if (this.ackDeadlineMs !== null && afterMs > this.ackDeadlineMs) return rec(404, 10062);
      return rec(204);
    }
    const hook = /^\/api\/v10\/webhooks\/(\d+)\/([^/]+)(\/messages\/(@original|\d+))?$/.exec(path);
    if (!hook) return null;
    const i = this.byToken.get(hook[2] ?? '');
    if (!i || hook[1] !== this.appId || !i.ack()) {
      return { status: 404, body: { message: 'Unknown Webhook', code: 10015 } };
    }
    const record = (kind: RecordedResponse['kind']) =>
      i.responses.push({
        kind,
        body,
        at: performance.now(),
        afterMs: performance.now() - i.dispatchedAt,
        status: kind === 'delete' ? 204 : 200,
      });
    const extra = { webhook_id: this.appId, application_id: this.appId };
    if (!hook[3] && method === 'POST') {
      record('followup');
      return { status: 200, body: this.messageObject(nextSnowflake(), '0', body, extra) };
    }
    if (hook[3] && method === 'PATCH') {
      record('edit');
      return { status: 200, body: this.messageObject(i.id, '0', body, extra) };
    }
    if (hook[3] && method === 'DELETE') {
      record('delete');
      return { status: 204 };
    }
    if (hook[3] && method === 'GET') {
      return { status: 200, body: this.messageObject(i.id, '0', i.original() ?? {}, extra) };
    }
    return null;
  }

  /** Messages the bot sent as direct messages, with their recipient, in order. */
  dms(): { userId: string; content: string; body: Record<string, unknown> }[] {
    return this.messages
      .filter((m) => this.dmChannels.has(m.channelId) && !m.deleted)
      .map((m) => ({
        userId: this.dmChannels.get(m.channelId)!,
        content: String(m.body.content ?? ''),
        body: m.body,
      }));
  }

  /** Routes that carry the bot token: command registration, DM channels and channel messages. */
  handle(method: string, path: string, body: unknown): Answer | null {
    if (path === '/api/v10/users/@me/channels' && method === 'POST') {
      const recipient = String((body as { recipient_id?: unknown } | null)?.recipient_id ?? '');
      if (!/^\d{17,20}$/.test(recipient)) {
        return { status: 400, body: { message: 'Invalid Form Body', code: 50035 } };
      }
      // Discord answers the same DM channel for the same recipient.
      const existing = [...this.dmChannels].find(([, user]) => user === recipient)?.[0];
      const id = existing ?? nextSnowflake();
      this.dmChannels.set(id, recipient);
      return {
        status: 200,
        body: {
          id,
          type: 1,
          last_message_id: null,
          recipients: [
            {
              id: recipient,
              username: `user${recipient.slice(-4)}`,
              discriminator: '0',
              global_name: null,
              avatar: null,
            },
          ],
        },
      };
    }
    const cmds = /^\/api\/v10\/applications\/(\d+)\/guilds\/(\d+)\/commands$/.exec(path);
    if (cmds) {
      const guildId = cmds[2] ?? '';
      if (method === 'GET') return { status: 200, body: this.commands(guildId) };
      if (method !== 'PUT' || !Array.isArray(body)) return null;
      const list = (body as Record<string, unknown>[]).map((c) => ({
        ...c,
        id: nextSnowflake(),
        application_id: this.appId,
        guild_id: guildId,
        type: c.type ?? 1,
        version: nextSnowflake(),
        default_member_permissions: null,
      }));
      this.commandPuts.set(guildId, [...(this.commandPuts.get(guildId) ?? []), list]);
      this.registered.set(guildId, list);
      return { status: 200, body: list };
    }
    const posted = /^\/api\/v10\/channels\/(\d+)\/messages$/.exec(path);
    if (posted && method === 'POST') {
      const dmTo = this.dmChannels.get(posted[1] ?? '');
      if (dmTo && this.dmsRefusedBy.has(dmTo)) {
        return { status: 403, body: { message: 'Cannot send messages to this user', code: 50007 } };
      }
      const message: PostedMessage = {
        id: nextSnowflake(),
        channelId: posted[1] ?? '',
        body: body as Record<string, unknown>,
        edits: 0,
        deleted: false,
      };
      this.messages.push(message);
      return { status: 200, body: this.messageObject(message.id, message.channelId, message.body) };
    }
    const one = /^\/api\/v10\/channels\/(\d+)\/messages\/(\d+)$/.exec(path);
    if (one) {
      const m = this.messages.find((x) => x.id === one[2] && x.channelId === one[1] && !x.deleted);
      if (!m) return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
      if (method === 'PATCH') {
        m.body = { ...m.body, ...(body as Record<string, unknown>) };
        m.edits += 1;
        return { status: 200, body: this.messageObject(m.id, m.channelId, m.body) };
      }
      if (method === 'DELETE') {
        m.deleted = true;
        return { status: 204 };
      }
      if (method === 'GET') return { status: 200, body: this.messageObject(m.id, m.channelId, m.body) };
    }
    return null;
  }
}
