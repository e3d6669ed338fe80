import { type AccessLevel, hasLevel, TEXTS } from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import { fail } from '../../../platform/errors.ts';
import { nameKey } from '../names.ts';
import { findItem, listOwnFilesByNameKey, listOwnFilesNamed } from '../repo.ts';
import { presentShare } from './present.ts';
import { createShare } from './service.ts';
import { noteNewShare } from './share-note.ts';

/** A member as another feature knows them (the music bot's Discord side): their id and level. */
export type ShareMember = { discordId: string; level: AccessLevel };

/** One of the member's own complete files whose name contains `query` (case-insensitive), by name. */
export async function findOwnFilesByName(
  db: Db,
  ownerId: string,
  query: string,
  limit: number,
): Promise<{ id: string; name: string }[]> {
  return listOwnFilesByNameKey(db, ownerId, nameKey(query), limit);
}

const notYours = () => fail('NOT_FOUND', 'You have no file by that name.');

/**
 * Shares one of the member's own files by a permanent public link (`/share` in Discord), through the
 * share service as `POST /api/files/:id/share` does, with that route's level check (user or above).
 * `file` is the file's id (an autocomplete choice) or its exact name (typed out; it must name exactly
 * one of the member's files). Another member's file, a folder or an unfinished upload is "not found".
 */
export async function shareOwnFile(
  db: Db,
  member: ShareMember,
  file: string,
  baseUrl: string,
  log: FastifyBaseLogger,
  now: Date,
): Promise<{ name: string; url: string }> {
  if (!hasLevel(member.level, 'user')) throw fail('FORBIDDEN', TEXTS.insufficientLevel('user'));
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  let target = UUID.test(file) ? await findItem(db, file) : undefined;
  if (!target) {
    const named = await listOwnFilesNamed(db, member.discordId, nameKey(file), 2);
    if (named.length !== 1) throw notYours();
    target = named[0];
  }
  if (target?.type !== 'file' || target.status !== 'complete' || target.owner_id !== member.discordId) {
    throw notYours();
  }
  const row = await createShare(db, target.id, member.discordId, { accessLevel: 'public' }, now);
  await noteNewShare(db, log, row);
  return { name: target.name, url: presentShare(row, baseUrl.replace(/\/+$/, ''), now.getTime()).url };
}
