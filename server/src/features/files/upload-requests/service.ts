import { randomUUID } from 'node:crypto';
import {
  GUEST_UPLOADS_OPEN_PER_REQUEST,
  isTypeAllowed,
  NOTICE_TEXTS,
  UPLOAD_REQUEST_MAX_DAYS,
  UPLOAD_REQUEST_TEXTS,
  UPLOAD_REQUESTS_PER_MEMBER,
  type UploadRequestCreateBody,
  type UploadRequestState,
} from '@guildhall/common';
import type { Transaction } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { Database } from '../../../db/schema.ts';
import { randomToken } from '../../../platform/crypto.ts';
import { fail } from '../../../platform/errors.ts';
import { dateOn } from '../../../platform/time.ts';
import { recordNotice } from '../../notices/index.ts';
import type { FilesContext } from '../context.ts';
import { findItem } from '../repo.ts';
import { requireFolder } from '../service.ts';
import { hashSharePassword } from '../shares/password.ts';
import type { FilesTable, UploadRequestsTable } from '../tables.ts';
import { completeUpload } from '../upload.ts';
import {
  countOpenRequests,
  countReceived,
  expireUnfinishedUploads,
  findRequestById,
  findRequestByToken,
  findRequestWithFolder,
  insertUploadRequest,
  listMemberRequests,
  markRequestClosed,
  uploadsUnderWay,
} from './repo.ts';

/** 24 random bytes (192 bits), base64url, like share links. */
const TOKEN_BYTES = 24;
const DAY_MS = 24 * 60 * 60_000;

export const requestNotFound = () => fail('NOT_FOUND', UPLOAD_REQUEST_TEXTS.notFound);

export const typesOf = (row: Pick<UploadRequestsTable, 'allowed_types'>) =>
  row.allowed_types ? row.allowed_types.split(' ') : [];

/** Where a request stands: closed by its owner, past its expiry, out of room, or open. */
export function requestStateOf(row: UploadRequestsTable, now: number): UploadRequestState {
  if (row.closed_at) return 'closed';
  if (Date.parse(row.expires_at) <= now) return 'expired';
  if (
    Number(row.files_received) >= Number(row.max_files) ||
    Number(row.bytes_received) >= Number(row.max_total_bytes)
  ) {
    return 'full';
  }
  return 'open';
}

/**
 * Creates an upload link into one of the member's own folders. It must expire (at most
 * UPLOAD_REQUEST_MAX_DAYS ahead); a member has at most UPLOAD_REQUESTS_PER_MEMBER open ones.
 */
export async function createUploadRequest(
  db: Db,
  ownerId: string,
  body: UploadRequestCreateBody,
  now: Date,
): Promise<UploadRequestsTable & { folder_name: string }> {
  const folder = await requireFolder(db, body.folderId);
  if (folder.owner_id !== ownerId) throw fail('FOLDER_NOT_OWNED', UPLOAD_REQUEST_TEXTS.folderNotYours);
  const expires = Date.parse(body.expiresAt);
  if (expires <= now.getTime()) {
    throw fail('EXPIRY_IN_PAST', 'expiresAt must be in the future');
  }
  if (expires > now.getTime() + UPLOAD_REQUEST_MAX_DAYS * DAY_MS) {
    throw fail('VALIDATION', `expiresAt must be at most ${UPLOAD_REQUEST_MAX_DAYS} days ahead`);
  }
  if ((await countOpenRequests(db, ownerId, now.toISOString())) >= UPLOAD_REQUESTS_PER_MEMBER) {
    throw fail('TOO_MANY_UPLOAD_REQUESTS', UPLOAD_REQUEST_TEXTS.tooMany);
  }
  const row: UploadRequestsTable = {
    id: randomUUID(),
    token: randomToken(TOKEN_BYTES),
    owner_id: ownerId,
    folder_id: folder.id,
    title: body.title || null,
    note: body.note || null,
    max_total_bytes: body.maxTotalBytes,
    max_files: body.maxFiles,
    allowed_types: [...new Set(body.allowedTypes ?? [])].join(' '),
    expires_at: new Date(expires).toISOString(),
    password_hash: body.password ? await hashSharePassword(body.password) : null,
    notify: body.notify === false ? 0 : 1,
    created_at: now.toISOString(),
    closed_at: null,
    files_received: 0,
    bytes_received: 0,
  };
  await insertUploadRequest(db, row);
  return { ...row, folder_name: folder.name };
}

export const listUploadRequests = listMemberRequests;

/**
 * Closes one of the member's own links at once (someone else's, or one already closed, is a 404): the
 * next request on it is refused, and its unfinished uploads' leases end now, so the maintenance sweep
 * drops them (their declared sizes stop counting against the owner's quota) instead of a day later.
 * They are not deleted here: a PATCH may be writing a chunk of one this very moment. Files already
 * received stay.
 */
export async function closeUploadRequest(ctx: FilesContext, ownerId: string, id: string) {
  const { db } = ctx;
  const now = dateOn(ctx.clock);
  if ((await markRequestClosed(db, id, ownerId, now.toISOString())) === 0) {
    throw fail('NOT_FOUND', 'Upload link not found');
  }
  await expireUnfinishedUploads(db, id, now.toISOString());
  const row = await findRequestWithFolder(db, id);
  if (!row) throw fail('NOT_FOUND', 'Upload link not found');
  return row;
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * An open request for a guest (a 404 for a closed, expired or unknown link, or one whose folder is
 * gone: nothing about the link's history shows). A full one is still found: its page says so.
 */
export async function findOpenRequest(db: Db, token: string, now: number): Promise<UploadRequestsTable> {
  if (!TOKEN_PATTERN.test(token)) throw requestNotFound();
  const row = await findRequestByToken(db, token);
  if (!row) throw requestNotFound();
  const state = requestStateOf(row, now);
  if (state === 'closed' || state === 'expired') throw requestNotFound();
  const folder = await findItem(db, row.folder_id);
  if (folder?.status !== 'complete' || folder.type !== 'folder') throw requestNotFound();
  return row;
}

/** Room left in a request: its limits less what it received and what is being uploaded now. */
export async function roomLeft(db: Pick<Db, 'selectFrom'>, row: UploadRequestsTable) {
  const underWay = await uploadsUnderWay(db, row.id);
  return {
    bytes: Math.max(0, Number(row.max_total_bytes) - Number(row.bytes_received) - underWay.bytes),
    files: Math.max(0, Number(row.max_files) - Number(row.files_received) - underWay.files),
    open: underWay.files,
  };
}

/**
 * The request's own admission of one guest upload, run inside the files feature's admissions lock
 * (storage-limits admitUpload), so concurrent guests cannot together pass the request's total size or
 * file count: the type, the room left, and the uploads under way at once.
 */
export async function admitGuestUpload(
  trx: Transaction<Database>,
  requestId: string,
  file: { name: string; type: string | undefined; size: number },
  now: number,
): Promise<void> {
  const row = await findRequestById(trx, requestId);
  const state = row && requestStateOf(row, now);
  if (!row || state === 'closed' || state === 'expired') throw requestNotFound();
  const types = typesOf(row);
  if (!isTypeAllowed(types, file.name, file.type)) {
    throw fail('UPLOAD_TYPE_REFUSED', UPLOAD_REQUEST_TEXTS.typeRefused(types));
  }
  const room = await roomLeft(trx, row);
  if (room.files <= 0) throw fail('UPLOAD_REQUEST_FULL', UPLOAD_REQUEST_TEXTS.filesExceeded(row.max_files));
  if (file.size > room.bytes) {
    throw fail(
      'UPLOAD_REQUEST_FULL',
      UPLOAD_REQUEST_TEXTS.totalExceeded(Number(row.max_total_bytes), room.bytes),
    );
  }
  if (room.open >= GUEST_UPLOADS_OPEN_PER_REQUEST) {
    throw fail('TOO_MANY_GUEST_UPLOADS', UPLOAD_REQUEST_TEXTS.tooManyOpen);
  }
}

/**
 * Lists a guest's finished upload in the request's folder (a taken name gets a number, as for members),
 * counts it on the request and tells the owner if they asked. Idempotent: the tus store calls it when
 * the last byte is stored and the guest's page again for its receipt; only the call that lists the file
 * counts it. Returns the listed file.
 */
export async function completeGuestUpload(
  ctx: FilesContext,
  request: UploadRequestsTable,
  fileId: string,
): Promise<FilesTable> {
  const row = await findItem(ctx.db, fileId);
  if (row?.type !== 'file' || row.upload_request_id !== request.id)
    throw fail('NOT_FOUND', 'Upload not found');
  if (row.status === 'complete' || row.status === 'trashed') return row;
  if (row.status !== 'stored') throw fail('UPLOAD_IN_PROGRESS', 'The upload is still being received');
  try {
    const listed = await completeUpload(
      ctx,
      request.owner_id,
      { fileId, fileName: row.name, fileSize: Number(row.size), totalChunks: row.total_chunks },
      request.id,
    );
    await countReceived(ctx.db, request.id, Number(listed.size));
    if (request.notify) {
      await recordNotice(
        ctx.db,
        {
          userId: request.owner_id,
          kind: 'request_upload',
          text: NOTICE_TEXTS.requestReceived(listed.name, request.title ?? 'Upload link'),
          link: `/filesystem?folder=${encodeURIComponent(request.folder_id)}`,
        },
        dateOn(ctx.clock),
      );
    }
    return (await findItem(ctx.db, fileId)) ?? row;
  } catch (e) {
    // Another call listed it meanwhile: that one counted it.
    const again = await findItem(ctx.db, fileId);
    if (again?.status === 'complete') return again;
    throw e;
  }
}
