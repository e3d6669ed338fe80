import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The committed test-only CA (its private key was deleted after signing the fake's one certificate). */
export const TEST_CA_FILE = new URL('./tls/ca.pem', import.meta.url).pathname;

/**
 * The value NODE_EXTRA_CA_CERTS must have in a process that runs the bot against the fake Discord: the
 * test CA, plus whatever extra CAs the environment already trusted (Node reads only one file, at start).
 */
export function testCaBundle(current = process.env.NODE_EXTRA_CA_CERTS): string {
  if (!current || path.resolve(current) === TEST_CA_FILE) return TEST_CA_FILE;
  if (!fs.existsSync(current)) return TEST_CA_FILE;
  const content = `${fs.readFileSync(current, 'utf8')}\n${fs.readFileSync(TEST_CA_FILE, 'utf8')}`;
  // Named by content: every run reuses the same file instead of leaving one per run behind.
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 16);
  const bundle = path.join(os.tmpdir(), `guildhall-test-ca-${hash}.pem`);
  if (!fs.existsSync(bundle)) fs.writeFileSync(bundle, content);
  return bundle;
}
