import type { ApiToken } from '@guildhall/common';
import type { ApiTokensTable } from '../../db/schema.ts';
import { parseScopes } from '../../platform/api-tokens.ts';

/** Row → API token (never its hash). */
export function presentApiToken(row: ApiTokensTable, now: number): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scopes: parseScopes(row.scopes),
    hint: row.hint,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    isExpired: Date.parse(row.expires_at) <= now,
  };
}
