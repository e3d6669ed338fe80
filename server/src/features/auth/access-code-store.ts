import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../db/index.ts';
import { randomToken } from '../../platform/crypto.ts';
import { insertSettingIfAbsent, readSetting } from './repo.ts';

/**
 * Where the code in force came from (the start-up log says it): the ACCESS_CODE variable, the database
 * (generated earlier, by this or another instance), the copy in `access-code.txt` of an older version,
 * or generated just now.
 */
export type AccessCodeOrigin = 'env' | 'database' | 'file' | 'generated';

export type AccessCodeSource = { code: string; generated: boolean; origin: AccessCodeOrigin; file?: string };

const SETTING = 'access_code';

/**
 * The access code in force: ACCESS_CODE when set; otherwise one generated on first start and kept in
 * the database, so every instance on that database accepts the same code. A copy goes to
 * `DATA_DIR/access-code.txt` (mode 0600) for the host to read; a code an earlier version kept only
 * there is adopted on upgrade.
 */
export async function resolveAccessCode(
  db: Db,
  configured: string | undefined,
  dataDir: string,
): Promise<AccessCodeSource> {
  if (configured) return { code: configured, generated: false, origin: 'env' };
  const file = path.join(dataDir, 'access-code.txt');
  let code = await storedCode(db);
  let generated = false;
  let origin: AccessCodeOrigin = 'database';
  if (!code) {
    const fromFile = readFileCode(file);
    const candidate = fromFile ?? randomToken(18);
    // Several instances starting at once: the first insert wins and everyone reads it back.
    await insertSettingIfAbsent(db, SETTING, candidate);
    code = (await storedCode(db)) ?? candidate;
    generated = code === candidate && readFileCode(file) !== candidate;
    // Another instance may have stored its code first: then ours came from the database after all.
    if (code === candidate) origin = fromFile ? 'file' : 'generated';
  }
  if (readFileCode(file) !== code) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, `${code}\n`, { mode: 0o600 });
  }
  return { code, generated, origin, file };
}

async function storedCode(db: Db): Promise<string | undefined> {
  const value = await readSetting(db, SETTING);
  return value && value.length >= 8 ? value : undefined;
}

function readFileCode(file: string): string | undefined {
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    return stored.length >= 8 ? stored : undefined;
  } catch {
    return undefined;
  }
}
