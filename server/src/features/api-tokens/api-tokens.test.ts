import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  API_TOKEN_CREATES_PER_HOUR,
  API_TOKENS_PER_MEMBER,
  type ApiToken,
  type ApiTokenScope,
  type ApiUploadResponse,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sha256Hex } from '../../platform/crypto.ts';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { multipart, uploadFile } from '../files/test-helpers.ts';

/** Personal API tokens (issue 45, "What it must show" 4). */

const run = promisify(execFile);
let ctx: TestContext;
let session: string;
let memberId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  ({ token: session, userId: memberId } = await ctx.signIn({ access_level: 'admin' }));
});
afterAll(() => ctx.close());

async function createToken(
  scopes: ApiTokenScope[],
  as = session,
  name = 'ShareX',
): Promise<{ token: string; data: ApiToken }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: bearer(as),
    payload: { name, scopes, expiresInDays: 30 },
  });
  if (res.statusCode !== 201) throw new Error(`token failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
const upload = (token: string, content: Buffer, name = 'x.png', query = '') => {
  const body = multipart({}, { name, content });
  return ctx.app.inject({
    method: 'POST',
    url: `/api/upload${query}`,
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
};

describe('creating, listing and revoking tokens', () => {
  test('a token is shown once, stored only as its hash, and listed by name, scopes, expiry and last use', async () => {
    const { token, data } = await createToken(['upload']);
    expect(token).toMatch(/^gh_[A-Za-z0-9_-]{43}$/);
    expect(data).toMatchObject({ name: 'ShareX', scopes: ['upload'], lastUsedAt: null, isExpired: false });
    expect(token.startsWith(data.hint)).toBe(true);
    const row = await ctx.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', data.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const list = await ctx.app.inject({ url: '/api/tokens', headers: bearer(session) });
    expect(list.body).not.toContain(token);
    expect((list.json().data as ApiToken[]).map((t) => t.id)).toContain(data.id);

    // Using it records when.
    expect((await upload(token, Buffer.from('seen'))).statusCode).toBe(201);
    const after = (await ctx.app.inject({ url: '/api/tokens', headers: bearer(session) })).json()
      .data as ApiToken[];
    expect(after.find((t) => t.id === data.id)?.lastUsedAt).toEqual(expect.any(String));
  });

  test('a member sees and revokes only their own tokens', async () => {
    const other = (await ctx.signIn({ access_level: 'user' })).token;
    const mine = await createToken(['upload']);
    const theirs = await ctx.app.inject({ url: '/api/tokens', headers: bearer(other) });
    expect((theirs.json().data as ApiToken[]).some((t) => t.id === mine.data.id)).toBe(false);
    const steal = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/tokens/${mine.data.id}`,
      headers: bearer(other),
    });
    expect(steal.statusCode).toBe(404);
    expect((await upload(mine.token, Buffer.from('still works'))).statusCode).toBe(201);
  });

  test('bad bodies are 400 naming the field', async () => {
    for (const [payload, field] of [
      [{ name: '', scopes: ['upload'], expiresInDays: 1 }, 'name'],
      [{ name: 'a', scopes: [], expiresInDays: 1 }, 'scope'],
      [{ name: 'a', scopes: ['admin'], expiresInDays: 1 }, 'scopes'],
      [{ name: 'a', scopes: ['upload', 'upload'], expiresInDays: 1 }, 'scopes'],
      [{ name: 'a', scopes: ['upload'], expiresInDays: 0 }, 'expiresInDays'],
      [{ name: 'a', scopes: ['upload'], expiresInDays: 400 }, 'expiresInDays'],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: bearer(session),
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toContain(field);
    }
  });

  test(`at most ${API_TOKENS_PER_MEMBER} live tokens; at most ${API_TOKEN_CREATES_PER_HOUR} created per hour`, async () => {
    const { token: own, userId } = await ctx.signIn({ access_level: 'user' });
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    await ctx.db
      .insertInto('api_tokens')
      .values(
        Array.from({ length: API_TOKENS_PER_MEMBER }, (_, i) => ({
          id: `seeded-${userId}-${i}`,
          user_id: userId,
          token_hash: sha256Hex(`seeded-${userId}-${i}`),
          name: `seeded ${i}`,
          hint: 'gh_x',
          scopes: 'upload',
          created_at: now,
          expires_at: later,
          last_used_at: null,
          revoked_at: null,
        })),
      )
      .execute();
    const full = await ctx.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: bearer(own),
      payload: { name: 'one more', scopes: ['upload'], expiresInDays: 1 },
    });
    expect(full.statusCode).toBe(409);
    expect(full.json().code).toBe('TOO_MANY_API_TOKENS');
    await ctx.db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();

    const { token: busy } = await ctx.signIn({ access_level: 'user' });
    const statuses: number[] = [];
    for (let i = 0; i <= API_TOKEN_CREATES_PER_HOUR; i += 1) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: bearer(busy),
        payload: { name: `t${i}`, scopes: ['upload'], expiresInDays: 1 },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 201) {
        await ctx.app.inject({
          method: 'DELETE',
          url: `/api/tokens/${res.json().data.id}`,
          headers: bearer(busy),
        });
      }
    }
    expect(statuses.slice(0, API_TOKEN_CREATES_PER_HOUR).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('what a token may do', () => {
  test('curl uploads with a token and gets a share URL that downloads the same bytes', async () => {
    const { token } = await createToken(['upload']);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-token-'));
    try {
      const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(300_000, 7)]);
      fs.writeFileSync(path.join(dir, 'x.png'), bytes);
      const { stdout } = await run(
        'curl',
        ['-sS', '-H', `Authorization: Bearer ${token}`, '-F', 'file=@x.png', `${origin}/api/upload`],
        { cwd: dir },
      );
      const answer = JSON.parse(stdout) as ApiUploadResponse;
      expect(answer.url).toMatch(/\/shared\/[A-Za-z0-9_-]{32}$/);
      // Earlier uploads here were x.png too: keep both, numbered (docs/files.md, Names).
      expect(answer.file.name).toMatch(/^x( \(\d+\))?\.png$/);
      expect(answer.file.size).toBe(bytes.length);
      expect(answer.share.accessLevel).toBe('public');
      const out = path.join(dir, 'back.png');
      const shareToken = answer.url.split('/shared/')[1];
      await run('curl', ['-sS', '-f', '-o', out, `${origin}/api/files/shared/${shareToken}/download`]);
      expect(fs.readFileSync(out).equals(bytes)).toBe(true);
      // The file is in the shared space, counted against the member who owns the token.
      const row = await ctx.db
        .selectFrom('files')
        .select(['owner_id', 'status'])
        .where('id', '=', answer.file.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ owner_id: memberId, status: 'complete' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a revoked or expired token gets 401', async () => {
    const revoked = await createToken(['upload', 'files:read']);
    await ctx.app.inject({
      method: 'DELETE',
      url: `/api/tokens/${revoked.data.id}`,
      headers: bearer(session),
    });
    const expired = await createToken(['upload', 'files:read']);
    await ctx.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.data.id)
      .execute();
    for (const t of [revoked.token, expired.token, 'gh_never-issued']) {
      const res = await upload(t, Buffer.from('nope'));
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('API_TOKEN_INVALID');
      const list = await ctx.app.inject({ url: '/api/files/mine', headers: bearer(t) });
      expect(list.statusCode).toBe(401);
    }
    const listed = (await ctx.app.inject({ url: '/api/tokens', headers: bearer(session) })).json()
      .data as ApiToken[];
    expect(listed.find((t) => t.id === expired.data.id)?.isExpired).toBe(true);
    expect(listed.some((t) => t.id === revoked.data.id)).toBe(false);
  });

  test('an upload-scope token gets 403 on listing files and on every admin route, even as an admin', async () => {
    const { token } = await createToken(['upload']);
    for (const url of ['/api/files', '/api/files/mine', '/api/tokens']) {
      const res = await ctx.app.inject({ url, headers: bearer(token) });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('API_TOKEN_SCOPE');
    }
    const adminRoutes = ctx.app.registeredRoutes.filter((r) => r.access === 'admin');
    expect(adminRoutes.length).toBeGreaterThan(5);
    for (const r of adminRoutes) {
      const res = await ctx.app.inject({
        method: r.method as 'GET',
        url: r.url.replace(/:[A-Za-z_]+/g, memberId),
        headers: bearer(token),
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
    }
  });

  test('files:read lists and downloads only the member’s own uploads', async () => {
    const { token } = await createToken(['files:read']);
    const mine = await uploadFile(ctx.app, session, 'mine.txt', Buffer.from('my bytes'));
    const { token: otherSession } = await ctx.signIn({ access_level: 'user' });
    const theirs = await uploadFile(ctx.app, otherSession, 'theirs.txt', Buffer.from('their bytes'));
    const list = await ctx.app.inject({ url: '/api/files/mine', headers: bearer(token) });
    const ids = (list.json().data as { id: string }[]).map((f) => f.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    const own = await ctx.app.inject({ url: `/download/${mine.id}`, headers: bearer(token) });
    expect(own.statusCode).toBe(200);
    expect(own.body).toBe('my bytes');
    expect((await ctx.app.inject({ url: `/download/${theirs.id}`, headers: bearer(token) })).statusCode).toBe(
      404,
    );
    // A files:read token cannot upload.
    expect((await upload(token, Buffer.from('x'))).json().code).toBe('API_TOKEN_SCOPE');
  });

  test('a shares token manages share links; a token never manages tokens', async () => {
    const { token } = await createToken(['shares']);
    const f = await uploadFile(ctx.app, session, 'to-share.txt', Buffer.from('s'));
    const created = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/${f.id}/share`,
      headers: bearer(token),
      payload: { accessLevel: 'user' },
    });
    expect(created.statusCode).toBe(201);
    const edited = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/files/shares/${created.json().data.id}`,
      headers: bearer(token),
      payload: { maxDownloads: 1 },
    });
    expect(edited.json().data.maxDownloads).toBe(1);
    const makeMore = await ctx.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: bearer(token),
      payload: { name: 'child', scopes: ['upload'], expiresInDays: 1 },
    });
    expect(makeMore.statusCode).toBe(403);
  });

  test('a token acts at its member’s current level: a viewer’s upload token is refused', async () => {
    const { token: viewerSession } = await ctx.signIn({ access_level: 'viewer' });
    const { token } = await createToken(['upload'], viewerSession);
    const res = await upload(token, Buffer.from('x'));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });

  test('an upload may ask for a users-only share; the quota path refuses what does not fit', async () => {
    const { token } = await createToken(['upload']);
    const res = await upload(token, Buffer.from('members only'), 'note.txt', '?accessLevel=user');
    expect(res.statusCode).toBe(201);
    expect(res.json().share.accessLevel).toBe('user');
    await ctx.db
      .insertInto('storage_quotas')
      .values({ user_id: memberId, quota_bytes: 1, updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ quota_bytes: 1 }))
      .execute();
    try {
      const refused = await upload(token, Buffer.alloc(4096, 1), 'big.bin');
      expect(refused.statusCode).toBe(507);
      expect(refused.json().code).toBe('QUOTA_EXCEEDED');
    } finally {
      await ctx.db.deleteFrom('storage_quotas').where('user_id', '=', memberId).execute();
    }
  });
});
