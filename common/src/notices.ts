import { z } from 'zod';

/**
 * Notices (issue 45): a sharer is told when a share they asked about is downloaded or an upload request
 * of theirs receives a file: in the portal (the navbar's bell, /notices) and, where the Discord bot is
 * configured and the member allows it, as a direct message from the bot (docs/files.md, "Notices").
 */

export const NOTICE_KINDS = ['share_download', 'request_upload'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** Notices are kept this long, read or not, then purged. */
export const NOTICE_RETENTION_DAYS = 30;
export const NOTICE_RETENTION_MS = NOTICE_RETENTION_DAYS * 24 * 60 * 60_000;
/** The list shows at most this many (newest first). */
export const NOTICES_LIST_MAX = 100;
/**
 * Notices one member receives per hour; past it, further events of the hour are dropped (a share
 * downloaded in a loop must not flood anyone's list or Discord).
 */
export const NOTICES_PER_MEMBER_PER_HOUR = 60;
/** Discord direct messages one member receives per hour; past it, notices stay in the portal only. */
export const NOTICE_DMS_PER_MEMBER_PER_HOUR = 10;
/** Notice-list reads and marks one member may make per minute (then 429). */
export const NOTICE_REQUESTS_PER_MINUTE = 120;

export const NOTICE_TEXTS = {
  title: 'Notices',
  empty: 'No notices yet. Ask to be told when a share is downloaded or an upload link receives a file.',
  markAllRead: 'Mark all as read',
  unread: (n: number) => (n === 1 ? '1 unread notice' : `${n} unread notices`),
  kept: `Notices are kept for ${NOTICE_RETENTION_DAYS} days.`,
  dmLabel: 'Also send my notices as a Discord direct message',
  dmHelp:
    'The portal’s bot sends them; your Discord privacy settings must allow messages from server members.',
  dmUnavailable: 'The Discord bot is not set up on this portal, so notices stay here.',
  shareDownloaded: (name: string) => `Your share of “${name}” was downloaded`,
  requestReceived: (name: string, title: string) => `“${name}” arrived through your upload link “${title}”`,
  tooMany: 'Too many notice requests; try again in a minute',
  /** The share edit form's switch. */
  shareNotify: 'Tell me when it is downloaded',
} as const;

export const Notice = z.object({
  id: z.string(),
  kind: z.enum(NOTICE_KINDS),
  text: z.string(),
  /** Where the notice leads in the portal (the folder or the file's folder), or null. */
  link: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notice = z.infer<typeof Notice>;

export const NoticesListResponse = z.object({
  success: z.literal(true),
  data: z.array(Notice),
  unread: z.number(),
});
export const NoticesUnreadResponse = z.object({ success: z.literal(true), unread: z.number() });

/** Marks notices read: the listed ones, or all when `ids` is absent. */
export const NoticesReadBody = z.object({
  ids: z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'ids must be notice ids' }), {
      error: 'ids must be a list',
    })
    .max(NOTICES_LIST_MAX, { error: `at most ${NOTICES_LIST_MAX} ids` })
    .optional(),
});
export type NoticesReadBody = z.infer<typeof NoticesReadBody>;

export const NoticeSettings = z.object({
  discordDm: z.boolean(),
  /** False when no Discord bot is configured: the setting is kept but nothing is sent. */
  botAvailable: z.boolean(),
});
export type NoticeSettings = z.infer<typeof NoticeSettings>;
export const NoticeSettingsResponse = z.object({ success: z.literal(true), data: NoticeSettings });
export const NoticeSettingsBody = z.object({
  discordDm: z.boolean({ error: 'discordDm must be true or false' }),
});
