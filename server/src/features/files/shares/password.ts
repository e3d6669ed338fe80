import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { FILE_MANAGER_TEXTS, rateLimitText, SharePasswordErrorCodes } from '@guildhall/common';
import { fail } from '../../../platform/errors.ts';
import type { FailureLimiter } from '../../../platform/rate-limit/index.ts';
import type { FileSharesTable } from '../tables.ts';

/** scrypt cost: 2^14 × 8 × 128 B = 16 MiB and ≈ 40 ms per check, on the libuv thread pool. */
const N = 16384;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_BYTES,
      { N: n, r, p, maxmem: 64 * 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

/** `scrypt$N$r$p$salt$key` (base64url): the parameters travel with the hash so they can be raised later. */
export async function hashSharePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifySharePassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A share (or an upload link) with a password answers only a request carrying it (header `X-Share-Password`; never in a
 * URL). Wrong guesses count per client address (10 per 15 minutes, then 429 with Retry-After), as the
 * access code's do; a right one is never slowed down.
 */
export async function requireSharePassword(
  share: Pick<FileSharesTable, 'password_hash'>,
  given: string | string[] | undefined,
  failures: FailureLimiter,
  clientKey: string,
): Promise<void> {
  if (!share.password_hash) return;
  const password = Array.isArray(given) ? given[0] : given;
  if (password === undefined || password === '') {
    throw fail(SharePasswordErrorCodes.required, FILE_MANAGER_TEXTS.passwordRequired);
  }
  const attempt = await failures.begin(clientKey);
  if (!attempt.isAllowed) {
    const seconds = attempt.retryAfterSeconds;
    throw fail('RATE_LIMITED', rateLimitText(seconds), { 'retry-after': String(seconds) });
  }
  const ok = password.length <= 256 && (await verifySharePassword(password, share.password_hash));
  if (!ok) throw fail(SharePasswordErrorCodes.wrong, FILE_MANAGER_TEXTS.passwordWrong);
  await attempt.forgive();
}
