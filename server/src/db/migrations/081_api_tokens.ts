import type { Kysely } from 'kysely';

/**
 * Personal API tokens (issue 45): only the SHA-256 of each token is kept (the token is 256 random bits,
 * so a plain hash is enough, as for sessions), with its name, scopes, expiry and last use.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(256)', (c) => c.notNull())
    // The first characters of the token, shown to tell tokens apart.
    .addColumn('hint', 'varchar(16)', (c) => c.notNull())
    // Space-separated scopes: upload, files:read, shares
    .addColumn('scopes', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute();
}
