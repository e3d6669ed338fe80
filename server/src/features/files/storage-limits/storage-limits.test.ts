import fs from 'node:fs';
import path from 'node:path';
import { RESUMABLE_UPLOAD_PATH, securityTexts, TUS_VERSION } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, TEST_ACCESS_CODE, type TestContext } from '../../../test/app.ts';
import { createFolder, startUpload, uploadFile } from '../test-helpers.ts';
import { freeBytes } from './service.ts';
import { appOnTmpfs, tmpfsProblem } from './test-tmpfs.ts';

/** Issue 15, disk exhaustion: per-member quotas (default and admin-set), the disk reserve, usage. */

const KiB = 1024;

describe('quotas', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ STORAGE_QUOTA_BYTES: String(100 * KiB), STORAGE_RESERVE_BYTES: '0' });
  });
  afterAll(() => ctx.close());

  test('an upload over the default quota answers 507 before it is stored; usage shows what is used', async () => {
    const { token } = await ctx.signIn();
    await uploadFile(ctx.app, token, 'a.bin', Buffer.alloc(60 * KiB));
    const usage = await ctx.app.inject({ url: '/api/files/usage', headers: bearer(token) });
    expect(usage.json()).toEqual({ success: true, data: { usedBytes: 60 * KiB, quotaBytes: 100 * KiB } });

    const over = await startUpload(ctx.app, token, Buffer.alloc(50 * KiB));
    expect(over.statusCode).toBe(507);
    expect(over.json()).toMatchObject({
      error: securityTexts.quotaExceeded('100 KB'),
      code: 'QUOTA_EXCEEDED',
    });
    const rows = await ctx.db.selectFrom('files').select('id').where('type', '=', 'file').execute();
    expect(rows).toHaveLength(1); // nothing of the refused upload remains

    const tus = await ctx.app.inject({
      method: 'POST',
      url: RESUMABLE_UPLOAD_PATH,
      headers: { ...bearer(token), 'tus-resumable': TUS_VERSION, 'upload-length': String(50 * KiB) },
    });
    expect(tus.statusCode).toBe(507);
    expect(tus.json().code).toBe('QUOTA_EXCEEDED');

    // The database stays writable: a folder can still be made, and what fits still uploads.
    await createFolder(ctx.app, token, 'Still works');
    await uploadFile(ctx.app, token, 'b.bin', Buffer.alloc(30 * KiB));
  });

  test("a member's concurrent uploads cannot each take the same remaining room", async () => {
    const { token } = await ctx.signIn();
    // 100 KiB of quota: each 90 KiB upload fits alone, not both.
    const fits = await Promise.all([
      startUpload(ctx.app, token, Buffer.alloc(90 * KiB)),
      startUpload(ctx.app, token, Buffer.alloc(90 * KiB)),
    ]);
    expect(fits.map((a) => a.statusCode).sort()).toEqual([200, 507]);
  });

  test('an admin sets a member quota and sees usage; null goes back to the default', async () => {
    const admin = await ctx.signIn({ access_level: 'admin' });
    const member = await ctx.signIn();
    await uploadFile(ctx.app, member.token, 'm.bin', Buffer.alloc(10 * KiB));
    const set = await ctx.app.inject({
      method: 'PUT',
      url: `/api/admin/storage/${member.userId}`,
      headers: bearer(admin.token),
      payload: { quotaBytes: 12 * KiB },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ usedBytes: 10 * KiB, quotaBytes: 12 * KiB, customQuota: true });
    expect((await startUpload(ctx.app, member.token, Buffer.alloc(4 * KiB))).statusCode).toBe(507);

    const list = await ctx.app.inject({ url: '/api/admin/storage', headers: bearer(admin.token) });
    expect(list.json().defaultQuotaBytes).toBe(100 * KiB);
    expect(list.json().data).toContainEqual(
      expect.objectContaining({ userId: member.userId, usedBytes: 10 * KiB, quotaBytes: 12 * KiB }),
    );

    const reset = await ctx.app.inject({
      method: 'PUT',
      url: `/api/admin/storage/${member.userId}`,
      headers: bearer(admin.token),
      payload: { quotaBytes: null },
    });
    expect(reset.json().data).toMatchObject({ quotaBytes: 100 * KiB, customQuota: false });
    // Both changes are in the admin audit trail.
    const audit = await ctx.app.inject({ url: '/api/admin/audit', headers: bearer(admin.token) });
    const quotaEntries = audit
      .json()
      .data.filter(
        (e: { action: string; target_id: string }) =>
          e.action === 'storage.quota' && e.target_id === member.userId,
      );
    expect(quotaEntries.map((e: { changes: { after: unknown }[] }) => e.changes[0]?.after)).toEqual([
      '100 KB (default)',
      '12 KB',
    ]);
    expect((await startUpload(ctx.app, member.token, Buffer.alloc(4 * KiB))).statusCode).toBe(200);
  });

  test('quota routes refuse bad input and unknown users', async () => {
    const admin = await ctx.signIn({ access_level: 'admin' });
    for (const payload of [{}, { quotaBytes: -1 }, { quotaBytes: 1.5 }, { quotaBytes: '10' }]) {
      const res = await ctx.app.inject({
        method: 'PUT',
        url: `/api/admin/storage/${admin.userId}`,
        headers: bearer(admin.token),
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
    const unknown = await ctx.app.inject({
      method: 'PUT',
      url: '/api/admin/storage/999999999999999999',
      headers: bearer(admin.token),
      payload: { quotaBytes: 1 },
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the disk reserve', () => {
  test('an upload that would cross STORAGE_RESERVE_BYTES answers 507 before sending', async () => {
    if (tmpfsProblem === null) {
      // On a 16 MiB disk of its own, 1 MiB above the reserve: the real disk's free space moved by more than
      // the margin below while other suites wrote and deleted files beside this one.
      const disk = await appOnTmpfs(16, { STORAGE_RESERVE_BYTES: String(15 * 1024 * KiB) });
      try {
        const { token } = await disk.ctx.signIn();
        const big = await startUpload(disk.ctx.app, token, Buffer.alloc(4 * 1024 * KiB));
        expect(big.statusCode).toBe(507);
        expect(big.json()).toMatchObject({ error: securityTexts.diskFull, code: 'STORAGE_FULL' });
      } finally {
        await disk.close();
      }
      return;
    }
    const probe = await createTestApp({ STORAGE_RESERVE_BYTES: '0' });
    const blobDir = path.join(probe.dataDir, 'blobs');
    const free = await freeBytes(blobDir);
    await probe.close();
    // A reserve leaving ~1 MiB of room on this machine's disk (the free space moves a little meanwhile).
    const ctx = await createTestApp({ STORAGE_RESERVE_BYTES: String(free - 1024 * KiB) });
    try {
      if (ctx.config.blobStore.store !== 'local') return; // the reserve guards the local store's disk
      const { token } = await ctx.signIn();
      const big = await startUpload(ctx.app, token, Buffer.alloc(64 * 1024 * KiB));
      expect(big.statusCode).toBe(507);
      expect(big.json()).toMatchObject({ error: securityTexts.diskFull, code: 'STORAGE_FULL' });
    } finally {
      await ctx.close();
    }
  });

  test.skipIf(tmpfsProblem !== null)(
    `with the blob disk full (a 2 MiB tmpfs), uploads answer 507 and sign-in still works${tmpfsProblem ? ` (skipped: ${tmpfsProblem})` : ''}`,
    async () => {
      const disk = await appOnTmpfs(2, { STORAGE_RESERVE_BYTES: String(256 * KiB) });
      const { ctx, blobDir } = disk;
      try {
        // Fill the blob disk to the brim.
        try {
          fs.writeFileSync(path.join(blobDir, 'filler'), Buffer.alloc(4 * 1024 * KiB));
        } catch {
          // ENOSPC: full, as intended
        }
        const { token } = await ctx.signIn();
        const upload = await startUpload(ctx.app, token, Buffer.alloc(10 * KiB));
        expect(upload.statusCode).toBe(507);
        expect(upload.json().code).toBe('STORAGE_FULL');
        const signIn = await ctx.app.inject({
          method: 'POST',
          url: '/api/auth/access-code',
          payload: { code: TEST_ACCESS_CODE },
        });
        expect(signIn.statusCode).toBe(200);
        await createFolder(ctx.app, token, 'Database still writable');
      } finally {
        await disk.close();
      }
    },
  );
});
