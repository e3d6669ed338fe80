import { GuildIdParams, MUSIC_STATUS_EVENT } from '@guildhall/common';
import { fail } from '../../platform/errors.ts';
import type { RoomType } from '../../platform/realtime/index.ts';
import type { MusicService } from './service.ts';

/**
 * Rooms `music:<guildId>`: every signed-in, approved member of the portal may watch a guild's playback
 * (viewers read status, as over HTTP); joining sends the current status at once.
 */
export function musicRoom(music: MusicService): RoomType {
  return {
    async authorize(_identity, key) {
      if (!GuildIdParams.safeParse({ guildId: key }).success) {
        throw fail('BAD_REQUEST', 'guildId must be a Discord ID (digits only)');
      }
    },
    async snapshot(key) {
      return { event: MUSIC_STATUS_EVENT, payload: { status: music.status(key) } };
    },
  };
}
