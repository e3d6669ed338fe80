import {
  DISCORD_COMMANDS,
  DISCORD_EPHEMERAL,
  DISCORD_TEXTS,
  MUSIC_TEXTS,
  musicButtonId,
  type PlaybackStatus,
  skipVoteText,
  TEXTS,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import { decodeToMono, dominantFrequency, type FakeInteraction } from '../../test/fake-discord-bot/index.ts';
import {
  ALICE,
  addToLibrary,
  audioAfter,
  BOB,
  GUILD_ID,
  type MusicTestContext,
  OTHER_GUILD_ID,
  startMusicApp,
  status,
  tone,
  VOICE_CHANNEL_ID,
} from './test-helpers.ts';

const PUBLIC_URL = 'https://portal.example.test';
const TEXT_CHANNEL_ID = '400000000000000030';
const CAROL = { id: '500000000000000003', username: 'carol' }; // a viewer
const DAVE = { id: '500000000000000004', username: 'dave' }; // unknown to the portal
const at = (userId: string) => ({ guildId: GUILD_ID, channelId: TEXT_CHANNEL_ID, userId });

type Seen = { content: string; flags: number; components: { components: Record<string, unknown>[] }[] };

/**
 * What the member sees once the bot answered: the original response (the callback's message or the edit of
 * a deferral) unless it was removed, else the last follow-up.
 */
async function seen(i: FakeInteraction): Promise<Seen> {
  return eventually(
    () => {
      const followup = i.followups().at(-1);
      const original = i.original();
      const deleted = i.responses.some((r) => r.kind === 'delete');
      const shown = deleted ? followup : (original ?? followup);
      if (!shown) throw new Error(`no visible answer yet: ${JSON.stringify(i.responses)}`);
      return {
        content: String(shown.content ?? ''),
        flags: Number(shown.flags ?? 0),
        components: (shown.components ?? []) as Seen['components'],
      };
    },
    { interval: 20 },
  );
}

/**
 * Issue 44 through the fake Discord and the real discord.js bot: slash commands registered by bulk overwrite
 * at start, /play (library search → audio at the fake), /pause, /skip as a vote with its button, refusals
 * with the portal's texts, autocomplete from the library, and the now-playing message edited in place with
 * its buttons.
 */
describe.skipIf(process.env.TEST_DB === 'postgres')('the portal inside Discord: slash commands', () => {
  let t: MusicTestContext;
  /** The deferral threshold, moved per test: 0 makes every command defer first (type 5), then edit. */
  const seam: { deferAfterMs?: number } = {};
  const songs: Record<string, string> = {};

  beforeAll(async () => {
    t = await startMusicApp(
      // No outside platform answers here: the library alone is searched (YouTube fails at once).
      { PUBLIC_URL, YOUTUBE_BASE_URL: 'http://127.0.0.1:9' },
      (discord) => {
        discord.interactions.seedCommands(GUILD_ID, ['oldcommand', 'play']);
        discord.addMember(GUILD_ID, CAROL);
        discord.addMember(GUILD_ID, DAVE);
      },
      { featureOptions: { music: { discord: seam } } },
    );
    await t.signIn({ discord_id: CAROL.id, username: CAROL.username, access_level: 'viewer' });
    const [a, b] = await Promise.all([tone(440, 40), tone(660, 40)]);
    songs.sunrise = await addToLibrary(t, t.alice.token, 'sunrise-tone.wav', a);
    songs.sunset = await addToLibrary(t, t.alice.token, 'sunset-tone.wav', b);
  });
  afterAll(async () => {
    await t?.closeAll();
  });

  test('the commands are registered once at start by bulk overwrite, on the community server only; stale ones are gone', async () => {
    const puts = await eventually(() => {
      const p = t.discord.interactions.commandPuts.get(GUILD_ID);
      if (!p?.length) throw new Error('no bulk overwrite yet');
      return p;
    });
    expect(puts).toHaveLength(1);
    const names = t.discord.interactions.commands(GUILD_ID).map((c) => c.name);
    expect(names.sort()).toEqual(
      Object.values(DISCORD_COMMANDS)
        .map((c) => c.name)
        .sort(),
    );
    expect(names).not.toContain('oldcommand');
    const play = t.discord.interactions.commands(GUILD_ID).find((c) => c.name === 'play');
    expect(play?.options).toEqual([
      expect.objectContaining({ name: 'query', required: true, autocomplete: true }),
    ]);
    expect(t.discord.interactions.commandPuts.get(OTHER_GUILD_ID)).toBeUndefined();
    expect(t.discord.log.filter((l) => l.startsWith('PUT ')).length).toBe(1);
  });

  test('autocomplete answers from the library search, within one callback of type 8', async () => {
    const i = t.discord.autocomplete(at(ALICE.id), 'play', 'query', 'sunr');
    const ack = await eventually(() => {
      const a = i.ack();
      if (!a) throw new Error('no autocomplete answer yet');
      return a;
    });
    expect(ack.type).toBe(8);
    expect(ack.body.choices).toEqual([
      { name: expect.stringMatching(/^sunrise-tone.*Library/), value: songs.sunrise },
    ]);
    // A member the portal does not know gets no suggestions.
    const stranger = t.discord.autocomplete(at(DAVE.id), 'play', 'query', 'sunr');
    await eventually(() => {
      if (!stranger.ack()) throw new Error('no answer');
    });
    expect(stranger.ack()?.body.choices).toEqual([]);
  });

  test('/play with a library song name plays it in the voice channel; the now-playing message is posted with its buttons', async () => {
    seam.deferAfterMs = 0;
    onTestFinished(() => {
      seam.deferAfterMs = undefined;
    });
    const i = t.discord.slash(at(ALICE.id), 'play', { query: 'sunrise' });
    const reply = await seen(i);
    expect(reply.content).toMatch(/^Playing \*\*sunrise-tone/);
    expect(reply.flags & DISCORD_EPHEMERAL).toBe(0);
    // Deferred (type 5, "thinking…") and then the original response edited with the result.
    expect(i.ack()?.type).toBe(5);
    expect(i.responses.map((r) => r.kind)).toEqual(['callback', 'edit']);
    const packets = await audioAfter(t.discord, performance.now(), 200, 50);
    expect(Math.abs(dominantFrequency(decodeToMono(packets)) - 440)).toBeLessThanOrEqual(5);
    const message = await eventually(() => {
      const m = t.discord.interactions.messages.find((x) => x.channelId === TEXT_CHANNEL_ID && !x.deleted);
      if (!m) throw new Error('no now-playing message yet');
      return m;
    });
    expect(String(message.body.content)).toContain('sunrise-tone');
    expect(message.body.allowed_mentions).toEqual({ parse: [] });
    const ids = (message.body.components as { components: { custom_id: string }[] }[]).flatMap((r) =>
      r.components.map((c) => c.custom_id),
    );
    expect(ids).toEqual(
      (['toggle', 'skip', 'stop', 'loop', 'voldown', 'volup'] as const).map((a) =>
        musicButtonId(a, GUILD_ID),
      ),
    );
  });

  test('/pause pauses; the now-playing button resumes; the one message is edited in place', async () => {
    const pause = t.discord.slash(at(ALICE.id), 'pause');
    expect((await seen(pause)).content).toBe('Paused');
    expect((await status(t, t.alice.token)).state).toBe('paused');
    const message = t.discord.interactions.messages.find(
      (x) => x.channelId === TEXT_CHANNEL_ID && !x.deleted,
    );
    await eventually(() => expect(String(message?.body.content)).toContain('Paused'));
    const press = t.discord.press(at(ALICE.id), musicButtonId('toggle', GUILD_ID), message?.id);
    await eventually(() => expect(press.ack()?.type).toBe(6)); // acknowledged without a new message
    await eventually(async () => expect((await status(t, t.alice.token)).state).toBe('playing'));
    await eventually(() => expect(String(message?.body.content)).toContain('Playing'));
    expect(t.discord.interactions.messages.filter((m) => !m.deleted)).toHaveLength(1);
    expect(message?.edits).toBeGreaterThan(0);
    // A double click is two interactions, each acknowledged once (never 40060).
    const clicks = [1, 2].map(() =>
      t.discord.press(at(ALICE.id), musicButtonId('volup', GUILD_ID), message?.id),
    );
    for (const c of clicks) await eventually(() => expect(c.ack()?.type).toBe(6));
    await eventually(async () => expect((await status(t, t.alice.token)).volume).toBeGreaterThan(100));
    await eventually(() => expect(String(message?.body.content)).toMatch(/volume 1[12]0 %/));
  });

  test('/skip from a second listener is a vote with a button; the requester pressing it skips', async () => {
    expect(
      (await seen(t.discord.slash(at(ALICE.id), 'play', { query: songs.sunset ?? '' }))).content,
    ).toMatch(/^Queued \*\*sunset-tone/);
    t.discord.setVoiceState(GUILD_ID, BOB.id, VOICE_CHANNEL_ID);
    await eventually(async () => expect((await status(t, t.alice.token)).listeners).toBe(2));
    onTestFinished(() => t.discord.setVoiceState(GUILD_ID, BOB.id, null));
    const vote = await seen(t.discord.slash(at(BOB.id), 'skip'));
    expect(vote.content).toBe(skipVoteText(1, 2));
    const button = vote.components[0]?.components[0];
    expect(button).toMatchObject({
      custom_id: musicButtonId('skip', GUILD_ID),
      label: DISCORD_TEXTS.voteSkip,
    });
    const before: PlaybackStatus = await status(t, t.alice.token);
    expect(before.currentSong?.title).toMatch(/^sunrise-tone/);
    const press = t.discord.press(at(ALICE.id), musicButtonId('skip', GUILD_ID));
    await eventually(() => expect(press.ack()?.type).toBe(6));
    await eventually(async () =>
      expect((await status(t, t.alice.token)).currentSong?.title).toMatch(/^sunset-tone/),
    );
    // The next song is heard once its ffmpeg took over (the switch waits for its first packets).
    await eventually(async () => {
      const packets = await audioAfter(t.discord, performance.now(), 0, 40);
      expect(Math.abs(dominantFrequency(decodeToMono(packets)) - 660)).toBeLessThanOrEqual(6);
    });
  });

  test('refusals are ephemeral, carry the portal’s message and an "Open portal" link button', async () => {
    const portalButton = {
      type: 2,
      style: 5,
      label: DISCORD_TEXTS.openPortal,
      url: `${PUBLIC_URL}/music`,
    };
    const stranger = await seen(t.discord.slash(at(DAVE.id), 'play', { query: 'sunrise' }));
    expect(stranger).toEqual({
      content: TEXTS.notApproved,
      flags: DISCORD_EPHEMERAL,
      components: [{ type: 1, components: [portalButton] }],
    });
    const viewer = await seen(t.discord.slash(at(CAROL.id), 'skip'));
    expect(viewer).toMatchObject({ content: TEXTS.insufficientLevel('user'), flags: DISCORD_EPHEMERAL });
    expect(viewer.components[0]?.components[0]).toEqual(portalButton);
    // A viewer's button press is refused the same way.
    const pressed = await seen(t.discord.press(at(CAROL.id), musicButtonId('stop', GUILD_ID)));
    expect(pressed).toMatchObject({ content: TEXTS.insufficientLevel('user'), flags: DISCORD_EPHEMERAL });
    // Bob is approved but in no voice channel: the web's refusal, only to him, also after a deferral
    // (the public "thinking…" is removed and the refusal follows up ephemerally).
    const quick = await seen(t.discord.slash(at(BOB.id), 'play', { query: 'sunrise' }));
    expect(quick).toMatchObject({ content: MUSIC_TEXTS.notInVoice, flags: DISCORD_EPHEMERAL });
    seam.deferAfterMs = 0;
    onTestFinished(() => {
      seam.deferAfterMs = undefined;
    });
    const deferred = t.discord.slash(at(BOB.id), 'play', { query: 'sunrise' });
    expect(await seen(deferred)).toMatchObject({ content: MUSIC_TEXTS.notInVoice, flags: DISCORD_EPHEMERAL });
    expect(deferred.responses.map((r) => r.kind)).toEqual(['callback', 'delete', 'followup']);
    expect((await status(t, t.alice.token)).state).toBe('playing');
  });

  test('no interaction was acknowledged twice or answered with an error', () => {
    const refused = t.discord.interactions.interactions.flatMap((i) =>
      i.responses.filter((r) => r.status >= 300),
    );
    expect(refused).toEqual([]);
    for (const i of t.discord.interactions.interactions) {
      expect(i.responses.filter((r) => r.kind === 'callback')).toHaveLength(1);
    }
  });
});
