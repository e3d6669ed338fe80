import { DISCORD_COMMANDS, DISCORD_GAME_TEXTS, GAME_INVITE_PATHS } from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { OfferedCommand } from '../../../platform/bot-holder.ts';
import { noteLobbyOpened } from '../../discord-notes/index.ts';
import { createInvite } from './invites.ts';
import type { GameContext } from './service.ts';

/** The routes' per-member limit (routes.ts): a command is one more request of the member. */
const PER_MINUTE = 300;

/**
 * `/tictactoe` in Discord (issue 44): "Invite a friend" as the calling member (the route's level: any
 * approved member, and its limit): a room with them as X, posted with a Join button; the first member to
 * follow it plays O. The games' own refusals (already in a game) answer the caller alone.
 */
export function ticTacToeCommand(ctx: GameContext, log: FastifyBaseLogger): OfferedCommand {
  const note = noteNewRoom(ctx, log);
  return {
    name: DISCORD_COMMANDS.tictactoe.name,
    access: 'login',
    perMinute: PER_MINUTE,
    async run(member, where) {
      const { game } = await createInvite(ctx, member.discordId);
      note({ id: game.id, hostId: member.discordId }, where.channelId);
      return {
        content: DISCORD_GAME_TEXTS.tictactoeInvite(member.username),
        path: GAME_INVITE_PATHS.tictactoe(game.id),
      };
    },
  };
}

/** The channel note of a room anyone may join (if the admin wants them); a failure to queue it is only logged. */
export function noteNewRoom(ctx: Pick<GameContext, 'db' | 'clock'>, log: FastifyBaseLogger) {
  return (game: { id: string; hostId: string }, postedIn: string | null) => {
    noteLobbyOpened(ctx.db, {
      game: 'tictactoe',
      hostId: game.hostId,
      path: GAME_INVITE_PATHS.tictactoe(game.id),
      now: ctx.clock.now(),
      postedIn,
    }).catch((err: unknown) =>
      log.warn({ err, gameId: game.id }, 'tic-tac-toe: the room note could not be queued'),
    );
  };
}
