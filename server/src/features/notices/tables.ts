import type { NoticeKind } from '@guildhall/common';

/** Tables of the notices feature (migration 084); joined into `Database` in db/schema.ts. */

/** none: no direct message wanted; pending → sending → sent | failed; skipped: over the hourly cap or stale. */
export type NoticeDmState = 'none' | 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';

export type NoticesTable = {
  id: string;
  user_id: string;
  kind: NoticeKind;
  text: string;
  /** A path in the portal (e.g. `/filesystem?folder=…`), or null. */
  link: string | null;
  created_at: string;
  read_at: string | null;
  dm_state: NoticeDmState;
};

export type NoticeSettingsTable = {
  user_id: string;
  /** 1: the member allows notices as Discord direct messages. */
  discord_dm: number;
  updated_at: string;
};

export type NoticesTables = {
  notices: NoticesTable;
  notice_settings: NoticeSettingsTable;
};
