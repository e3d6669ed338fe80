import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MUSIC_PLATFORM_LABELS, type MusicPlatform } from '@guildhall/common';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { openDb } from '../../server/src/db/index.ts';
import { createSession } from '../../server/src/platform/sessions.ts';
import { buildUser } from '../../server/src/test/factories.ts';
import { BASE_URL, DB_FILE, ROOT } from './env.ts';
import { BOT_CONTROL_URL, MUSIC_GUILD, MUSIC_MEMBERS, type MusicMemberKey } from './music-env.ts';

export type MusicMember = { key: MusicMemberKey; token: string; userId: string; username: string };

/**
 * A session for one of the fixed music members (the fake Discord lists them as guild members, so the bot
 * sees their voice states). The user row is made on first use; every call gives a fresh session.
 */
export async function musicMember(key: MusicMemberKey, dbFile = DB_FILE): Promise<MusicMember> {
  const m = MUSIC_MEMBERS[key];
  const db = openDb(`sqlite:${dbFile}`);
  try {
    const found = await db
      .selectFrom('users')
      .select('discord_id')
      .where('discord_id', '=', m.id)
      .executeTakeFirst();
    if (!found) await buildUser(db, { discord_id: m.id, username: m.username, global_name: m.username });
    return { key, token: await createSession(db, m.id), userId: m.id, username: m.username };
  } finally {
    await db.destroy();
  }
}

/** A browser context signed in as `member` (token and user in localStorage before the app loads). */
export async function musicContext(
  browser: Browser,
  member: MusicMember,
  opts: { baseURL?: string; width?: number; hasTouch?: boolean } = {},
): Promise<{ context: BrowserContext; screen: MusicScreen }> {
  const context = await browser.newContext({
    baseURL: opts.baseURL ?? BASE_URL,
    viewport: { width: opts.width ?? 1280, height: 900 },
    hasTouch: opts.hasTouch ?? false,
  });
  await context.addInitScript((m) => {
    if (!localStorage.getItem('authToken')) {
      localStorage.setItem('authToken', m.token);
      localStorage.setItem(
        'authUser',
        JSON.stringify({
          discord_id: m.userId,
          username: m.username,
          access_level: 'user',
          is_approved: true,
        }),
      );
    }
  }, member);
  const page = await context.newPage();
  return { context, screen: new MusicScreen(page, member, opts.baseURL ?? BASE_URL) };
}

/** Moves a member into a voice channel of the e2e server (or out, with null), through the fake's control port. */
export async function setVoiceChannel(userId: string, channelId: string | null): Promise<void> {
  const res = await fetch(`${BOT_CONTROL_URL}/voice`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ guildId: MUSIC_GUILD.id, userId, channelId }),
  });
  if (!res.ok) throw new Error(`fake discord control: ${res.status} ${await res.text()}`);
}

export type LibrarySong = { title: string; file: string; seconds: number };

/**
 * Three test songs made with ffmpeg: a 440 Hz tone and two others, long enough that nothing ends during
 * a test. Made once and kept in .tmp; their names carry `tag` so a library search finds only them.
 */
export function makeSongs(tag: string): LibrarySong[] {
  const specs = [
    { title: `${tag} Tone 440 Hz`, source: 'sine=frequency=440:sample_rate=48000', seconds: 180 },
    { title: `${tag} Chord C major`, source: 'sine=frequency=523.25:sample_rate=48000', seconds: 150 },
    { title: `${tag} Low hum 110 Hz`, source: 'sine=frequency=110:sample_rate=48000', seconds: 120 },
  ];
  return specs.map((s) => makeSong(s));
}

/** One test song made with ffmpeg (kept in .tmp): a lavfi `source` for `seconds`, titled `title`. */
export function makeSong(s: { title: string; source: string; seconds: number }): LibrarySong {
  const dir = path.join(ROOT, '.tmp', 'music-e2e');
  fs.mkdirSync(dir, { recursive: true });
  // The library names a song after its file.
  const file = path.join(dir, `${s.title}.flac`);
  if (!fs.existsSync(file)) {
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `${s.source}:duration=${s.seconds}`,
      // FLAC states its length in its header, so the library learns the duration without decoding.
      '-ac',
      '1',
      '-c:a',
      'flac',
      '-sample_fmt',
      's16',
      '-metadata',
      `title=${s.title}`,
      '-metadata',
      'artist=Guildhall E2E',
      file,
    ]);
  }
  return { title: s.title, file, seconds: s.seconds };
}

/** Uploads a file into the shared file system (which is the music Library) through the spec's upload flow. */
export async function uploadToLibrary(
  token: string,
  song: LibrarySong,
  baseURL = BASE_URL,
  folderId?: string,
): Promise<string> {
  const content = fs.readFileSync(song.file);
  const name = path.basename(song.file);
  const form = new FormData();
  if (folderId) form.append('folderId', folderId);
  form.append('file', new Blob([new Uint8Array(content)]), name);
  const auth = { authorization: `Bearer ${token}` };
  const start = (await (
    await fetch(`${baseURL}/upload`, { method: 'POST', headers: auth, body: form })
  ).json()) as {
    fileId: string;
    totalChunks: number;
  };
  const res = await fetch(`${baseURL}/upload/complete`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      fileId: start.fileId,
      fileName: name,
      fileSize: content.length,
      totalChunks: start.totalChunks,
    }),
  });
  if (!res.ok) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
  return start.fileId;
}

type Json = { success: boolean; data?: Record<string, unknown> };
const musicApi = async (
  member: MusicMember,
  method: string,
  p: string,
  body?: unknown,
  baseURL = BASE_URL,
) => {
  const res = await fetch(`${baseURL}/api/music${p}`, {
    method,
    headers: {
      authorization: `Bearer ${member.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Json;
};

/**
 * The test songs in the library, uploading only those not there yet: a retried test run (same portal,
 * same library) finds them instead of adding copies.
 */
export async function ensureLibrary(member: MusicMember, songs: LibrarySong[], tag: string): Promise<void> {
  const found = await musicApi(member, 'POST', '/search', {
    query: tag,
    platform: 'library',
    maxResults: 10,
  });
  const titles = new Set(((found.data?.results ?? []) as { title: string }[]).map((r) => r.title));
  for (const s of songs) if (!titles.has(s.title)) await uploadToLibrary(member.token, s);
}

/** Puts the e2e server's playback back to nothing playing, no queue, no effects, flat EQ (for a retried run). */
export async function resetPlayback(member: MusicMember): Promise<void> {
  const g = MUSIC_GUILD.id;
  const status = (await musicApi(member, 'GET', `/status/${g}`)).data as { currentSong: unknown } | undefined;
  if (status?.currentSong) {
    await musicApi(member, 'POST', `/effects/${g}`, { effects: [] });
    await musicApi(member, 'POST', `/equalizer/${g}`, {
      eq: { bass: 0, lowMid: 0, mid: 0, highMid: 0, treble: 0 },
    });
  }
  await musicApi(member, 'DELETE', `/queue/${g}`);
  await musicApi(member, 'POST', `/stop/${g}`);
}

/** Page object for /music. */
export class MusicScreen {
  readonly page: Page;
  readonly member: MusicMember;
  readonly baseURL: string;
  constructor(page: Page, member: MusicMember, baseURL: string) {
    this.page = page;
    this.member = member;
    this.baseURL = baseURL;
  }

  async open(): Promise<void> {
    await this.page.goto('/music');
    await this.page.getByRole('heading', { name: 'Music Control' }).waitFor();
  }

  /** The API as this member (for setup and for reading the server's view). */
  async api<T = unknown>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.baseURL}/api/music${p}`, {
      method,
      headers: {
        authorization: `Bearer ${this.member.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  get botBadge(): Locator {
    return this.page.getByTestId('bot-badge');
  }
  get errorBanner(): Locator {
    return this.page.getByTestId('music-error');
  }
  get successBanner(): Locator {
    return this.page.getByTestId('music-success');
  }
  get nowTitle(): Locator {
    return this.page.getByTestId('now-title');
  }
  get playbackState(): Locator {
    return this.page.getByTestId('playback-state');
  }
  get scrubber(): Locator {
    return this.page.getByTestId('scrubber');
  }
  get elapsed(): Locator {
    return this.page.getByTestId('elapsed');
  }
  get queueTitles(): Locator {
    return this.page.getByTestId('queue-title');
  }
  control(name: 'Restart' | 'Play' | 'Pause' | 'Resume' | 'Skip' | 'Stop'): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }
  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }
  tab(name: 'Queue' | 'Search' | 'Playlists'): Locator {
    return this.page.getByRole('tab', { name: new RegExp(`^${name}`) });
  }
  effect(key: string): Locator {
    return this.page.getByTestId(`effect-${key}`);
  }
  eq(band: string): Locator {
    return this.page.getByTestId(`eq-${band}`);
  }
  result(title: string): Locator {
    return this.page.getByTestId('search-result').filter({ hasText: title });
  }
  playlist(name: string): Locator {
    return this.page.getByTestId('playlist').filter({ has: this.page.getByText(name, { exact: true }) });
  }

  async search(query: string, platform: MusicPlatform): Promise<void> {
    await this.tab('Search').click();
    const radio = this.page.getByRole('radio', { name: MUSIC_PLATFORM_LABELS[platform], exact: true });
    await this.page.locator('label').filter({ has: radio }).click();
    await radio.isChecked();
    await this.page.getByLabel('Search songs').fill(query);
    await this.page.getByLabel('Search songs').press('Enter');
  }

  /**
   * Drags with a finger (Chromium touch events through CDP; Playwright's touchscreen only taps): press,
   * hold past the queue's press delay (so a swipe still scrolls the list), move, lift.
   */
  async touchDrag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    const cdp = await this.page.context().newCDPSession(this.page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', p?: { x: number; y: number }) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y }] : [] });
    await touch('touchStart', from);
    // Part of the gesture, not a wait for a result: the finger rests longer than the sensor's 150 ms delay.
    await this.page.waitForTimeout(300);
    const steps = 12;
    for (let i = 1; i <= steps; i++) {
      await touch('touchMove', {
        x: from.x + ((to.x - from.x) * i) / steps,
        y: from.y + ((to.y - from.y) * i) / steps,
      });
    }
    await touch('touchEnd');
    await cdp.detach();
  }

  /** The centre of a queue item's drag handle, and a point in the top quarter of it. */
  async handlePoints(
    index: number,
  ): Promise<{ centre: { x: number; y: number }; top: { x: number; y: number } }> {
    // Touch events land only inside the viewport: bring the row in first (Now Playing grew taller).
    const handle = this.page.getByTestId('queue-handle').nth(index);
    await handle.scrollIntoViewIfNeeded();
    const box = (await handle.boundingBox())!;
    return {
      centre: { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      top: { x: box.x + box.width / 2, y: box.y + box.height / 4 },
    };
  }

  /** The scrubber's position in seconds (its value). */
  async position(): Promise<number> {
    return Number(await this.scrubber.inputValue());
  }
}

/**
 * A song alone in a new folder of the library: autoplay (which looks in the song's folder) then has nothing
 * to add after it, whatever else other specs put in the library's root.
 */
export async function songAlone(member: MusicMember, song: LibrarySong): Promise<void> {
  const res = await fetch(`${BASE_URL}/api/folders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `${song.title} ${Date.now()}` }),
  });
  if (!res.ok) throw new Error(`folder: ${res.status} ${await res.text()}`);
  const folder = ((await res.json()) as { data: { id: string } }).data;
  await uploadToLibrary(member.token, song, BASE_URL, folder.id);
}
