import { openDb } from '../../server/src/db/index.ts';
import { createSession } from '../../server/src/platform/sessions.ts';
import { buildUser, type UserOverrides } from '../../server/src/test/factories.ts';
import { DB_FILE } from './env.ts';

/**
 * Test data goes straight into the portal's database (the same SQLite file, WAL mode), the way an
 * admin CLI would, so each test can have its own members without clicking through the admin panel.
 */
export async function createMember(
  overrides: UserOverrides = {},
): Promise<{ token: string; userId: string; username: string }> {
  const db = openDb(`sqlite:${DB_FILE}`);
  try {
    const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const row = await buildUser(db, { username: `e2e_${unique}`, ...overrides });
    const token = await createSession(db, row.discord_id);
    return { token, userId: row.discord_id, username: row.username };
  } finally {
    await db.destroy();
  }
}

/** Reads one session row by user (to prove logout revoked it server-side). */
export async function liveSessionCount(userId: string): Promise<number> {
  const db = openDb(`sqlite:${DB_FILE}`);
  try {
    const rows = await db
      .selectFrom('sessions')
      .select('token_hash')
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    return rows.length;
  } finally {
    await db.destroy();
  }
}

/**
 * Makes a tic-tac-toe player look as if their screen was last seen `ms` ago, so a test need not wait out
 * the presence threshold (the server reads `seen_at` on every request, so the next poll sees it).
 */
export async function setLastSeen(userId: string, ms: number): Promise<void> {
  const db = openDb(`sqlite:${DB_FILE}`);
  try {
    const at = new Date(Date.now() - ms).toISOString();
    await db.updateTable('tictactoe_seats').set({ seen_at: at }).where('user_id', '=', userId).execute();
  } finally {
    await db.destroy();
  }
}

/**
 * Moves a share's expiry into the past, so a test sees an expired link without waiting for it (the API
 * refuses to create one already expired).
 */
export async function expireShare(shareId: string): Promise<void> {
  const db = openDb(`sqlite:${DB_FILE}`);
  try {
    const past = new Date(Date.now() - 60_000).toISOString();
    await db.updateTable('file_shares').set({ expires_at: past }).where('id', '=', shareId).execute();
  } finally {
    await db.destroy();
  }
}
