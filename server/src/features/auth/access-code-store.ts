import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from '../../platform/crypto.ts';

export type AccessCodeSource = { code: string; generated: boolean; file?: string };

/**
 * The access code in force: ACCESS_CODE when set; otherwise one generated on first start and kept
 * in the data dir (mode 0600) so it survives restarts.
 */
export function resolveAccessCode(configured: string | undefined, dataDir: string): AccessCodeSource {
  if (configured) return { code: configured, generated: false };
  const file = path.join(dataDir, 'access-code.txt');
  if (fs.existsSync(file)) {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= 8) return { code: stored, generated: false, file };
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const code = randomToken(18);
  fs.writeFileSync(file, `${code}\n`, { mode: 0o600 });
  return { code, generated: true, file };
}
