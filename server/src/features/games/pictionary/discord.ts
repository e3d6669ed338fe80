import { DISCORD_COMMANDS, DISCORD_GAME_TEXTS, GAME_INVITE_PATHS } from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { OfferedCommand } from '../../../platform/bot-holder.ts';
import { noteLobbyOpened } from '../../discord-notes/index.ts';
import { openLobby } from './rooms.ts';
import type { PictionaryContext } from './service.ts';

/** The routes' per-member limit (routes.ts): a command is one more request of the member. */
const PER_MINUTE = 300;

/**
 * `/pictionary` in Discord (issue 44): a new lobby hosted by the calling member (the routes' level: any
 * approved member, and their limit), posted with a Join button. A member already in a lobby gets that one
 * posted; one whose game is under way gets a link to it, for them alone.
 */
export function pictionaryCommand(game: PictionaryContext): OfferedCommand {
  return {
    name: DISCORD_COMMANDS.pictionary.name,
    access: 'login',
    perMinute: PER_MINUTE,
    async run(member, where) {
      const { game: lobby } = await openLobby(game, member.discordId, where.channelId);
      if (lobby.status !== 'lobby')
        return { content: DISCORD_GAME_TEXTS.inGame, path: '/minigames/pictionary', private: true };
      return {
        content: DISCORD_GAME_TEXTS.pictionaryInvite(member.username),
        path: GAME_INVITE_PATHS.pictionary(lobby.id),
      };
    },
  };
}

/** The channel note of a new lobby (if the admin wants them); a failure to queue it is only logged. */
export function noteNewLobby(
  game: { db: PictionaryContext['db']; clock: PictionaryContext['clock'] },
  log: FastifyBaseLogger,
) {
  return (lobby: { id: string; hostId: string }, postedIn: string | null) => {
    noteLobbyOpened(game.db, {
      game: 'pictionary',
      hostId: lobby.hostId,
      path: GAME_INVITE_PATHS.pictionary(lobby.id),
      now: game.clock.now(),
      postedIn,
    }).catch((err: unknown) =>
      log.warn({ err, gameId: lobby.id }, 'pictionary: the lobby note could not be queued'),
    );
  };
}
