import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestApp } from './app.ts';
import { eventually } from './eventually.ts';
import { snowflake } from './factories.ts';

/**
 * The PostgreSQL copies tests run on (template-db.ts): a worker hands the copy of an ended test to the next
 * one, emptied, with the connections it had open. That must never let one test see another's rows or
 * schema, nor empty a copy while a closed app's query is still running on it.
 */
describe.runIf(process.env.TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL)(
  'database copies handed from one test to the next (PostgreSQL)',
  () => {
    const users = async (ctx: Awaited<ReturnType<typeof createTestApp>>) =>
      (await ctx.db.selectFrom('users').select('username').execute()).map((u) => u.username);

    it("a copy comes back empty of the last test's rows, with the migrations' own rows", async () => {
      const first = await createTestApp();
      const url = first.config.databaseUrl;
      await first.signIn({ username: 'left-behind' });
      await first.close();
      const next = await createTestApp();
      try {
        expect(next.config.databaseUrl).toBe(url); // the same copy, reused
        expect(await users(next)).not.toContain('left-behind');
        expect(await next.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
        // A row migration 004 seeds (matchmaking serializes on it) is there again.
        expect(await next.db.selectFrom('tictactoe_matchmaking').select('id').execute()).toHaveLength(1);
      } finally {
        await next.close();
      }
    });

    it('a copy whose schema a test changed is never handed out again; a change rolled back is no change', async () => {
      const rolledBack = await createTestApp();
      const kept = rolledBack.config.databaseUrl;
      await rolledBack.db
        .transaction()
        .execute(async (tx) => {
          await sql`ALTER TABLE users ADD COLUMN rolled_back integer`.execute(tx);
          throw new Error('roll back');
        })
        .catch(() => {});
      await rolledBack.close();

      const changed = await createTestApp();
      expect(changed.config.databaseUrl).toBe(kept);
      await sql`ALTER TABLE users ADD COLUMN test_only integer`.execute(changed.db);
      await changed.close();

      const next = await createTestApp();
      try {
        expect(next.config.databaseUrl).not.toBe(kept);
        const columns = await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = 'users'`.execute(next.db);
        expect(columns.rows.map((c) => c.column_name)).not.toContain('test_only');
      } finally {
        await next.close();
      }
    });

    it('closing an app waits for the query its Db still has running before the copy can be emptied', async () => {
      const ctx = await createTestApp();
      const id = snowflake();
      await ctx.signIn({ discord_id: id, username: 'locked' });
      // Another connection holds the row, so the app's update waits on it.
      const holder = new pg.Client({ connectionString: ctx.config.databaseUrl });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM users WHERE discord_id = $1 FOR UPDATE', [id]);
        const update = ctx.db
          .updateTable('users')
          .set({ username: 'late' })
          .where('discord_id', '=', id)
          .execute();
        await eventually(async () => {
          const waiting = await holder.query(
            "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          expect(waiting.rowCount).toBe(1);
        });
        // The app is closed, then its Db: ending the Db must wait for the update it still has out (the
        // copy's pool stays open for the next test, which empties the copy first).
        await ctx.app.close();
        let ended = false;
        const ending = ctx.db.destroy().then(() => {
          ended = true;
        });
        // A round trip to the server: time enough for an end that did not wait to have resolved.
        const stillWaiting = await holder.query(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        expect(stillWaiting.rowCount).toBe(1);
        expect(ended).toBe(false);
        await holder.query('COMMIT');
        await update;
        await ending;
        expect(ended).toBe(true);
        await ctx.close();
      } finally {
        await holder.end();
      }
      // The next test on this copy does not see the late update's row.
      const next = await createTestApp();
      try {
        expect(await users(next)).not.toContain('late');
      } finally {
        await next.close();
      }
    });
  },
);
