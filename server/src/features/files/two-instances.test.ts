import { createHash, randomBytes } from 'node:crypto';
import { CHUNK_SIZE_BYTES } from '@guildhall/common';
import { afterAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { filesStoreEnv, storedBlobIds } from '../../test/files-store.ts';
import { uploadFile } from './test-helpers.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const open: TestContext[] = [];
afterAll(async () => {
  // The second instance first: the first one owns the database.
  for (const ctx of open.reverse()) await ctx.close();
});

describe.each(['s3', 'discord'] as const)('two instances on one %s store', (store) => {
  test('a file uploaded through one instance downloads through the other, and deleting it there frees the store', async () => {
    const env = await filesStoreEnv(store);
    const a = await createTestApp(env);
    open.push(a);
    const b = await createTestApp(env, undefined, { sameDatabaseAs: a });
    open.push(b);
    const { token } = await a.signIn();
    const content = randomBytes(CHUNK_SIZE_BYTES + 4321);

    const item = await uploadFile(a.app, token, 'shared.bin', content);
    const res = await b.app.inject({ url: `/download/${item.id}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(sha256(res.rawPayload)).toBe(sha256(content));
    expect(await storedBlobIds(b.config)).toHaveLength(2);

    const del = await b.app.inject({
      method: 'DELETE',
      url: `/api/files/${item.id}`,
      headers: bearer(token),
    });
    expect(del.statusCode).toBe(200);
    // Deleting moves the file to the trash (issue 30); purging it there, on the other instance, frees the store.
    const admin = await b.signIn({ access_level: 'admin' });
    const purge = await a.app.inject({
      method: 'DELETE',
      url: `/api/trash/${item.id}`,
      headers: bearer(admin.token),
    });
    expect(purge.statusCode).toBe(200);
    await eventually(async () => expect(await storedBlobIds(a.config)).toEqual([]));
  });
});
