import { GuildIdParams, MUSIC_STATUS_EVENT } from '@guildhall/common';
import { fail } from '../../platform/errors.ts';
import type { RoomType } from '../../platform/realtime/index.ts';
import type { MusicCommands } from './front.ts';

/**
 * Rooms `music:<guildId>`: every signed-in, approved member of the portal may watch a guild's playback
 * (viewers read status, as over HTTP); joining sends the current status at once.
 */
export function musicRoom(music: MusicCommands): RoomType {
  return {
    async authorize(_identity, key) {
      if (!GuildIdParams.safeParse({ guildId: key }).success) {
        throw fail('BAD_REQUEST', 'guildId must be a Discord ID (digits only)');
      }
    },
    async snapshot(key) {
      return { event: MUSIC_STATUS_EVENT, payload: { status: await music.status(key) } };
    },
  };
}
