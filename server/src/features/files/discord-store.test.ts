import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { CHUNK_SIZE_BYTES, RESUMABLE_UPLOAD_PATH, TUS_VERSION } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiscordBlobStore, fileThreadGroup } from '../../platform/blob-store/discord.ts';
import { crc32cHex, crc32cOf } from '../../platform/blob-store/integrity.ts';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { type FakeDiscordFiles, startFakeDiscordFiles } from '../../test/fake-discord-files/server.ts';
import { multipart, uploadFile } from './test-helpers.ts';

let fake: FakeDiscordFiles;
let ctx: TestContext;
let token: string;
let channelId: string;
let base: string;
beforeAll(async () => {
  fake = await startFakeDiscordFiles();
  channelId = fake.createChannel();
  ctx = await createTestApp({
    FILES_STORE: 'discord',
    DISCORD_API_URL: fake.apiUrl,
    DISCORD_BOT_TOKEN: fake.botToken,
    FILES_DISCORD_CHANNEL_ID: channelId,
    MAX_UPLOAD_BYTES: String(200 * 1024 * 1024),
  });
  token = (await ctx.signIn()).token;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function download(id: string, range?: string): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(`${base}/download/${id}`, {
    headers: { ...bearer(token), ...(range ? { range } : {}) },
  });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

describe('Discord-channel store', () => {
  test('100 MiB round-trips with its SHA-256 through 429s and expiring URLs; a range in chunk 7 reads only chunk 7; delete removes the thread', async () => {
    fake.set({ rateLimitEvery: 5, urlTtlMs: 10_000 });
    const content = randomBytes(100 * 1024 * 1024);
    const item = await uploadFile(ctx.app, token, 'big.bin', content);
    expect(item.chunks).toBe(13);
    expect(item.threadId).toMatch(/^\d{17,20}$/);
    expect(fake.threadsOf(channelId).find((t) => t.id === item.threadId)).toMatchObject({
      messages: 13,
      bytes: content.length,
    });

    fake.expireNextUrls(2); // the first two URLs handed out have expired by the time they are used
    const whole = await download(item.id);
    expect(whole.status).toBe(200);
    expect(sha256(whole.body)).toBe(sha256(content));
    expect(fake.stats.rateLimited).toBeGreaterThan(0);
    expect(fake.stats.expiredUrls).toBe(2);

    // Bytes in the middle of chunk 7 (index 6): one message fetched for a fresh URL, one CDN read.
    const mark = fake.log.length;
    const start = 6 * CHUNK_SIZE_BYTES + 1_000_000;
    const part = await download(item.id, `bytes=${start}-${start + 99_999}`);
    expect(part.status).toBe(206);
    expect(part.body.equals(content.subarray(start, start + 100_000))).toBe(true);
    const rows = await ctx.db.selectFrom('file_chunks').selectAll().where('file_id', '=', item.id).execute();
    const chunk7 = rows.find((r) => r.idx === 6)!.blob_id.split('/');
    const since = fake.log.slice(mark).filter((e) => e.status !== 429);
    expect(since.map((e) => `${e.method} ${e.path.replace(/\/[^/]+$/, '/…')}`)).toEqual([
      `GET /api/v10/channels/${item.threadId}/messages/…`,
      `GET /attachments/${item.threadId}/${chunk7[2]}/…`,
    ]);
    expect(since[0]!.path).toBe(`/api/v10/channels/${item.threadId}/messages/${chunk7[1]}`);

    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/files/${item.id}`,
      headers: bearer(token),
    });
    expect(del.statusCode).toBe(200);
    // Deleting moves the file to the trash (issue 30); purging it there removes its thread.
    const admin = await ctx.signIn({ access_level: 'admin' });
    const purge = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/trash/${item.id}`,
      headers: bearer(admin.token),
    });
    expect(purge.statusCode).toBe(200);
    await eventually(() => expect(fake.threadsOf(channelId).map((t) => t.id)).not.toContain(item.threadId));
    expect(
      fake.log.some(
        (e) => e.method === 'DELETE' && e.path === `/api/v10/channels/${item.threadId}` && e.status === 200,
      ),
    ).toBe(true);
    fake.set({ rateLimitEvery: 0 });
  });

  test('a failed upload removes every chunk it sent and its thread', async () => {
    const before = fake.stats.uploads;
    fake.set({ failUploadsAfter: before + 1 }); // the first chunk is stored, the next ones are refused
    const body = multipart({}, { name: 'doomed.bin', content: randomBytes(3 * CHUNK_SIZE_BYTES) });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/upload',
      payload: body.payload,
      headers: { ...bearer(token), ...body.headers },
    });
    fake.set({ failUploadsAfter: Number.POSITIVE_INFINITY });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe('File storage is unavailable right now; try again in a moment');
    await eventually(() => expect(fake.threadsOf(channelId)).toEqual([]));
    expect(await ctx.db.selectFrom('files').select('id').execute()).toEqual([]);
  });

  test('a resumable upload whose chunk Discord refuses answers 503 (the page retries), then continues', async () => {
    const headers = { ...bearer(token), 'tus-resumable': TUS_VERSION };
    const content = randomBytes(1000);
    const create = await fetch(`${base}${RESUMABLE_UPLOAD_PATH}`, {
      method: 'POST',
      headers: { ...headers, 'upload-length': String(content.length) },
    });
    const url = `${base}${create.headers.get('location')}`;
    const patch = () =>
      fetch(url, {
        method: 'PATCH',
        headers: { ...headers, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
        body: content,
      });
    fake.set({ failUploadsAfter: fake.stats.uploads });
    const refused = await patch();
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toBe(
      'File storage is unavailable right now; try again in a moment',
    );
    fake.set({ failUploadsAfter: Number.POSITIVE_INFINITY });
    const again = await patch();
    expect(again.status).toBe(204);
    expect(again.headers.get('upload-offset')).toBe('1000');
  });

  test('a corrupted chunk fails the read instead of passing as the file', async () => {
    const store = new DiscordBlobStore({ channelId, botToken: fake.botToken, apiUrl: fake.apiUrl });
    const id = await store.put([Buffer.from('the real bytes')]);
    const good = { crc32c: crc32cHex(crc32cOf(Buffer.from('the real bytes'))), sha256: null, size: 14 };
    const ok = await store.get(id, undefined, good);
    expect(Buffer.concat(await ok.toArray()).toString()).toBe('the real bytes');
    const wrong = await store.get(id, { start: 4, end: 7 }, { ...good, crc32c: '00000000' });
    await expect(wrong.toArray()).rejects.toThrow(/corrupt/);
    // A URL handed out and then left past its lifetime is refused by the CDN; the store asks again.
    fake.set({ urlTtlMs: 10_000 });
    const message = await fetch(
      `${fake.apiUrl}/v10/channels/${id.split('/')[0]}/messages/${id.split('/')[1]}`,
      {
        headers: { authorization: `Bot ${fake.botToken}` },
      },
    );
    const url = ((await message.json()) as { attachments: { url: string }[] }).attachments[0]!.url;
    expect((await fetch(url)).status).toBe(200);
    fake.advanceClock(11_000);
    expect((await fetch(url)).status).toBe(404);
    const again = await store.get(id, { start: 4, end: 7 });
    expect(Buffer.concat(await again.toArray()).toString()).toBe('real');
    await store.delete(id.split('/')[0]!);
    await store.close();
  });

  test('a thread whose id was never recorded (a process killed right after Discord answered) is found and deleted by the file’s name', async () => {
    const store = new DiscordBlobStore({ channelId, botToken: fake.botToken, apiUrl: fake.apiUrl });
    const before = fake.threadsOf(channelId).map((t) => t.id);
    // The thread's name is handed over before the thread is asked for, then its id.
    const handed: string[] = [];
    await store
      .forFile('orphan-file', async (group) => {
        handed.push(group);
      })
      .put([Buffer.from('half a migration')]);
    expect(handed).toEqual([fileThreadGroup('orphan-file'), expect.stringMatching(/^\d+$/)]);
    // Only the name recorded, as when a kill lands before the id is: the name finds the thread.
    const orphan = fake.threadsOf(channelId).find((t) => !before.includes(t.id));
    expect(orphan).toBeDefined();
    const other = await store.forFile('kept-file').put([Buffer.from('another file')]);
    const named = fileThreadGroup('orphan-file');
    expect(await store.deleteMany([named])).toEqual([named]);
    const left = fake.threadsOf(channelId).map((t) => t.id);
    expect(left).not.toContain(orphan!.id);
    expect(left).toContain(other.split('/')[0]);
    // Nothing of that name left: deleting it again is done at once.
    expect(await store.deleteMany([named])).toEqual([named]);
    await store.delete(other.split('/')[0]!);
    await store.close();
  });
});
