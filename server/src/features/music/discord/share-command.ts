import { DISCORD_AUTOCOMPLETE_MAX, DISCORD_CHOICE_MAX_CHARS, DISCORD_SHARE_TEXTS } from '@guildhall/common';
import { escapeMarkdown } from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import { fail } from '../../../platform/errors.ts';
import { findOwnFilesByName, shareOwnFile } from '../../files/index.ts';
import type { Caller } from '../service.ts';

/**
 * `/share <file>` (issue 44): the music bot's Discord side only carries the interaction; the files
 * feature finds the member's files and makes the share (its share service, the route's level check).
 */

/** Autocomplete: the member's own files whose name contains what they typed (the value is the file's id). */
export async function shareChoices(db: Db, caller: Caller, typed: string) {
  const files = await findOwnFilesByName(db, caller.user.discord_id, typed.trim(), DISCORD_AUTOCOMPLETE_MAX);
  return files.map((f) => ({
    name:
      f.name.length <= DISCORD_CHOICE_MAX_CHARS
        ? f.name
        : `${f.name.slice(0, DISCORD_CHOICE_MAX_CHARS - 1)}…`,
    value: f.id,
  }));
}

/** The answer to `/share`: a permanent public link to the member's file (shown to them only). */
export async function shareReply(
  db: Db,
  publicUrl: string | null,
  caller: Caller,
  file: string,
  log: FastifyBaseLogger,
  now: Date,
): Promise<{ content: string }> {
  // Discord shows only absolute links; without PUBLIC_URL the portal does not know its own address.
  if (!publicUrl) throw fail('BAD_REQUEST', DISCORD_SHARE_TEXTS.noPublicUrl);
  const shared = await shareOwnFile(
    db,
    { discordId: caller.user.discord_id, level: caller.level },
    file.trim(),
    publicUrl,
    log,
    now,
  );
  return { content: DISCORD_SHARE_TEXTS.shared(escapeMarkdown(shared.name), shared.url) };
}
