import {
  DISCORD_EPHEMERAL,
  DISCORD_GAME_TEXTS,
  DISCORD_TEXTS,
  type PictionaryGame,
  TEXTS,
  TICTACTOE_TEXTS,
  type TicTacToeGame,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import type { FakeInteraction } from '../../test/fake-discord-bot/index.ts';
import { ALICE, api, BOB, GUILD_ID, type MusicTestContext, startMusicApp } from './test-helpers.ts';

const PUBLIC_URL = 'https://portal.example.test';
const TEXT_CHANNEL_ID = '400000000000000030';
const CAROL = { id: '500000000000000003', username: 'carol' }; // a viewer: games are open to every approved member
const DAVE = { id: '500000000000000004', username: 'dave' }; // unknown to the portal
const at = (userId: string) => ({ guildId: GUILD_ID, channelId: TEXT_CHANNEL_ID, userId });

type Button = { type: number; style: number; label: string; url?: string };
type Seen = { content: string; flags: number; buttons: Button[] };

/** What the member sees: the original response unless removed, else the last follow-up. */
async function seen(i: FakeInteraction): Promise<Seen> {
  return eventually(
    () => {
      const deleted = i.responses.some((r) => r.kind === 'delete');
      const shown = deleted ? i.followups().at(-1) : (i.original() ?? i.followups().at(-1));
      if (!shown) throw new Error(`no visible answer yet: ${JSON.stringify(i.responses)}`);
      const rows = (shown.components ?? []) as { components: Button[] }[];
      return {
        content: String(shown.content ?? ''),
        flags: Number(shown.flags ?? 0),
        buttons: rows.flatMap((r) => r.components),
      };
    },
    { interval: 20 },
  );
}

/** The lobby or room id of a Join button that links to `page?join=<id>` on the portal. */
function joinId(button: Button | undefined, page: string): string {
  expect(button).toMatchObject({ type: 2, style: 5, label: DISCORD_TEXTS.join });
  const url = new URL(button?.url ?? '');
  expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}${page}`);
  return url.searchParams.get('join') ?? '';
}

/**
 * `/pictionary` and `/tictactoe` (issue 44) through the fake Discord and the real discord.js bot: the game
 * is opened as the calling member by the games' own services (their rules and texts), and its invite is
 * posted in the channel with a Join button to the lobby's page, which seats whoever follows it.
 */
describe.skipIf(process.env.TEST_DB === 'postgres')('game commands in Discord', () => {
  let t: MusicTestContext;
  let carolToken = '';

  beforeAll(async () => {
    t = await startMusicApp({ PUBLIC_URL }, (discord) => {
      discord.addMember(GUILD_ID, CAROL);
      discord.addMember(GUILD_ID, DAVE);
    });
    carolToken = (await t.signIn({ discord_id: CAROL.id, username: CAROL.username, access_level: 'viewer' }))
      .token;
  });
  afterAll(async () => {
    await t?.closeAll();
  });

  test('both commands are registered with the others', async () => {
    const names = await eventually(() => {
      const n = t.discord.interactions.commands(GUILD_ID).map((c) => c.name);
      if (!n.includes('pictionary')) throw new Error('not registered yet');
      return n;
    });
    expect(names).toEqual(expect.arrayContaining(['pictionary', 'tictactoe', 'play', 'portal']));
  });

  test('/pictionary opens a lobby hosted by the caller and posts it with a Join button that seats whoever follows it', async () => {
    const i = t.discord.slash(at(ALICE.id), 'pictionary');
    const reply = await seen(i);
    expect(reply.content).toBe(DISCORD_GAME_TEXTS.pictionaryInvite(ALICE.username));
    expect(reply.flags & DISCORD_EPHEMERAL).toBe(0); // in the channel, for everyone
    const id = joinId(reply.buttons[0], '/minigames/pictionary');
    const mine = await api<{ game: PictionaryGame }>(
      t,
      t.alice.token,
      'GET',
      '/api/games/pictionary/current',
    );
    expect(mine.body.game).toMatchObject({ id, status: 'lobby', hostId: ALICE.id });
    // The page behind the button joins that lobby for a signed-in member (the browser test follows it).
    const joined = await api<{ game: PictionaryGame }>(
      t,
      t.bob.token,
      'POST',
      `/api/games/pictionary/${id}/join`,
    );
    expect(joined.status).toBe(200);
    expect(joined.body.game.players.map((p) => p.id).sort()).toEqual([ALICE.id, BOB.id].sort());

    // Asked again, the caller's own lobby is posted again (one game per member, as on the web).
    const again = await seen(t.discord.slash(at(ALICE.id), 'pictionary'));
    expect(joinId(again.buttons[0], '/minigames/pictionary')).toBe(id);

    // Once the game is under way, the caller alone gets a link to it.
    expect((await api(t, t.alice.token, 'POST', `/api/games/pictionary/${id}/start`)).status).toBe(200);
    const playing = await seen(t.discord.slash(at(BOB.id), 'pictionary'));
    expect(playing).toEqual({
      content: DISCORD_GAME_TEXTS.inGame,
      flags: DISCORD_EPHEMERAL,
      buttons: [
        { type: 2, style: 5, label: DISCORD_TEXTS.openPortal, url: `${PUBLIC_URL}/minigames/pictionary` },
      ],
    });
    await api(t, t.alice.token, 'POST', `/api/games/pictionary/${id}/leave`);
    await api(t, t.bob.token, 'POST', `/api/games/pictionary/${id}/leave`);
  });

  test('/tictactoe opens a private room with the caller as X; the first to follow its Join button plays O', async () => {
    const reply = await seen(t.discord.slash(at(CAROL.id), 'tictactoe'));
    expect(reply.content).toBe(DISCORD_GAME_TEXTS.tictactoeInvite(CAROL.username));
    expect(reply.flags & DISCORD_EPHEMERAL).toBe(0);
    const id = joinId(reply.buttons[0], '/minigames/tic-tac-toe');
    const room = await api<{ game: TicTacToeGame }>(t, carolToken, 'GET', `/api/games/tic-tac-toe/${id}`);
    expect(room.body.game).toMatchObject({ status: 'waiting', isPrivate: true, player1: { id: CAROL.id } });
    const joined = await api<{ game: TicTacToeGame }>(
      t,
      t.bob.token,
      'POST',
      `/api/games/tic-tac-toe/${id}/join`,
    );
    expect(joined.body.game).toMatchObject({ status: 'in_progress', player2: { id: BOB.id } });

    // The games' own refusal, to the caller alone: Bob is in that game now.
    const refused = await seen(t.discord.slash(at(BOB.id), 'tictactoe'));
    expect(refused).toMatchObject({ content: TICTACTOE_TEXTS.inviteWhileInGame, flags: DISCORD_EPHEMERAL });
  });

  test('/portal away from the music links to the home page, only for the caller', async () => {
    expect(await seen(t.discord.slash(at(BOB.id), 'portal'))).toEqual({
      content: DISCORD_TEXTS.portal,
      flags: DISCORD_EPHEMERAL,
      buttons: [{ type: 2, style: 5, label: DISCORD_TEXTS.openPortal, url: `${PUBLIC_URL}/` }],
    });
  });

  test('a member unknown to the portal is refused with its text, and nothing is opened', async () => {
    for (const name of ['pictionary', 'tictactoe']) {
      const reply = await seen(t.discord.slash(at(DAVE.id), name));
      expect(reply).toMatchObject({ content: TEXTS.notApproved, flags: DISCORD_EPHEMERAL });
    }
    const rows = await t.db
      .selectFrom('pictionary_players')
      .select('user_id')
      .where('user_id', '=', DAVE.id)
      .execute();
    expect(rows).toEqual([]);
  });

  test('no interaction was acknowledged twice or answered with an error', () => {
    for (const i of t.discord.interactions.interactions) {
      expect(i.responses.filter((r) => r.status >= 300)).toEqual([]);
      expect(i.responses.filter((r) => r.kind === 'callback')).toHaveLength(1);
    }
  });
});
