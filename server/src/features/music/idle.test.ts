import type { MusicPlayResponse } from '@guildhall/common';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import {
  addToLibrary,
  api,
  GUILD_ID,
  type MusicTestContext,
  startMusicApp,
  status,
  tone,
} from './test-helpers.ts';

let t: MusicTestContext;
beforeAll(async () => {
  // The default is 5 minutes (MUSIC_IDLE_LEAVE_MS); the rule is the same with 1 s.
  t = await startMusicApp({ MUSIC_IDLE_LEAVE_SECONDS: '1' });
});
afterAll(async () => {
  await t?.closeAll();
});

test('the bot leaves its voice channel once idle for the configured time, and says Idle meanwhile', async () => {
  const url = await addToLibrary(t, t.alice.token, 'short.wav', await tone(440, 2));
  const play = await api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', {
    guildId: GUILD_ID,
    url,
  });
  expect(play.body.data.action).toBe('playing');
  expect(t.discord.botChannel(GUILD_ID)).toBe('400000000000000010');
  expect(play.body.data.status.idle).toBe(false);
  const stopped = await api<{ data: { status: { idle: boolean } } }>(
    t,
    t.alice.token,
    'POST',
    `/api/music/stop/${GUILD_ID}`,
  );
  expect(stopped.body.data.status.idle).toBe(true);
  await eventually(() => expect(t.discord.botChannel(GUILD_ID)).toBeNull(), {
    interval: 100,
  });
  expect(await status(t, t.alice.token)).toMatchObject({ voiceChannel: null, idle: false, listeners: 0 });
});
