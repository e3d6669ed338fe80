import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { resolveAccessCode } from './access-code-store.ts';

const dirs: string[] = [];
const contexts: TestContext[] = [];
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-code-'));
  dirs.push(d);
  return d;
};

describe('the generated access code (issue 16: one code for every instance)', () => {
  it('two instances with separate data dirs on one database generate one code between them', async () => {
    const ctx = await createTestApp();
    contexts.push(ctx);
    const [a, b] = await Promise.all([
      resolveAccessCode(ctx.db, undefined, tempDir()),
      resolveAccessCode(ctx.db, undefined, tempDir()),
    ]);
    expect(a.code).toBe(b.code);
    expect(a.code.length).toBeGreaterThanOrEqual(20);
    expect([a.generated, b.generated].filter(Boolean)).toHaveLength(1);
    // Each instance leaves the host a readable copy.
    expect(fs.readFileSync(a.file as string, 'utf8').trim()).toBe(a.code);
    expect(fs.readFileSync(b.file as string, 'utf8').trim()).toBe(a.code);
    expect(fs.statSync(b.file as string).mode & 0o777).toBe(0o600);
  });

  it('keeps the code across restarts, and adopts a code an earlier version kept only in the file', async () => {
    const ctx = await createTestApp();
    contexts.push(ctx);
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'access-code.txt'), 'old-file-code-123\n');
    const first = await resolveAccessCode(ctx.db, undefined, dir);
    expect(first).toMatchObject({ code: 'old-file-code-123', generated: false, origin: 'file' });
    const again = await resolveAccessCode(ctx.db, undefined, tempDir());
    // Issue 32: the second start got it from the database, and the log must say so (not "the file").
    expect(again).toMatchObject({ code: 'old-file-code-123', generated: false, origin: 'database' });
  });

  it('ACCESS_CODE wins and is not stored', async () => {
    const ctx = await createTestApp();
    contexts.push(ctx);
    const dir = tempDir();
    expect(await resolveAccessCode(ctx.db, 'configured-code', dir)).toEqual({
      code: 'configured-code',
      generated: false,
      origin: 'env',
    });
    expect(fs.existsSync(path.join(dir, 'access-code.txt'))).toBe(false);
  });
});
