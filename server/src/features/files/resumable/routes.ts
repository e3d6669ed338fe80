import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  genericCodeFor,
  RESUMABLE_UPLOAD_PATH,
  ResumableResponses,
  ResumableUploadParams,
  TUS_VERSION,
} from '@guildhall/common';
import type { Server } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StoreUnavailableError } from '../../../platform/blob-store/index.ts';
import { fail, faultStatus, HttpError, serverFault } from '../../../platform/errors.ts';
import type { FilesContext } from '../context.ts';
import { findItem } from '../repo.ts';
import { checkDiskStillHolds, diskFull, isNoSpace } from '../storage-limits/service.ts';
import { storageUnavailable } from '../upload.ts';
import type { ChunkTusStore } from './tus-store.ts';

const write = { access: 'user' } as const;

/** An HttpError as tus answers it, in the API's envelope. */
const envelope = (err: HttpError) => ({
  status_code: err.statusCode,
  body: JSON.stringify({ success: false, error: err.message, code: err.code }),
});
const OCTETS = 'application/offset+octet-stream';

/**
 * A tus server on the portal's chunk store, answering its refusals in the API's error envelope: the
 * members' (/upload/resumable) and the guests' of upload requests (upload-requests/guest-routes.ts).
 * `ownerOf` names who a creation request uploads for (from what the route checked), or refuses it.
 */
export function createTusServer(
  TusServer: typeof Server,
  ctx: FilesContext,
  datastore: ChunkTusStore,
  options: {
    path: string;
    ownerOf: (raw: IncomingMessage) => string | undefined;
    created: WeakMap<IncomingMessage, string>;
    /** Each upload's Location is under the creation request's path, not `${path}/${id}`. */
    underCreatingPath?: boolean;
    /** Told each new upload's id with the request that creates it. */
    onNamed?: (raw: IncomingMessage, id: string) => void;
  },
): Server {
  const rawOf = (req: unknown) =>
    (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  return new TusServer({
    path: options.path,
    datastore,
    maxSize: ctx.maxUploadBytes,
    relativeLocation: true,
    // An upload's address under the address that created it (a guest's: /api/requests/{token}/uploads/{id}).
    ...(options.underCreatingPath
      ? { generateUrl: (req: Request, { id }: { id: string }) => `${new URL(req.url).pathname}/${id}` }
      : {}),
    namingFunction: (req) => {
      const raw = rawOf(req);
      const owner = raw ? options.ownerOf(raw) : undefined;
      if (!owner) throw { status_code: 401, body: 'Sign in first' };
      const id = randomUUID();
      datastore.owners.set(id, owner);
      datastore.connections.set(id, raw!);
      options.created.set(raw!, id);
      options.onNamed?.(raw!, id);
      return id;
    },
    // tus's own refusals (offset conflicts, size) in the API's envelope, as every other route answers.
    onResponseError: (_req, err) => {
      if (isNoSpace(err)) {
        ctx.log.error({ err }, 'the blob disk is full');
        return envelope(diskFull());
      }
      if (err instanceof HttpError) return envelope(err);
      if (err instanceof StoreUnavailableError) {
        ctx.log.error({ err }, 'file storage failed during a resumable upload');
        return envelope(storageUnavailable());
      }
      if (err instanceof Error && 'statusCode' in err) {
        const status = Number((err as { statusCode: number }).statusCode);
        return {
          status_code: status,
          body: JSON.stringify({ success: false, error: err.message, code: genericCodeFor(status) }),
        };
      }
      if (!(err instanceof Error)) {
        return {
          status_code: err.status_code,
          body: JSON.stringify({
            success: false,
            error: err.body.trim() || 'Upload refused',
            code: genericCodeFor(err.status_code),
          }),
        };
      }
      // A fault of ours: logged with its details, answered without them (no server paths in a body).
      ctx.log.error({ err }, 'a resumable upload request failed');
      return { status_code: faultStatus(err), body: JSON.stringify(serverFault(err)) };
    },
  });
}

/** Checks what tus would refuse in plain text, so bad input gets the API's envelope. */
export function precheckTus(req: FastifyRequest): void {
  if (req.headers['tus-resumable'] !== TUS_VERSION) {
    throw fail('TUS_VERSION', `Send the header Tus-Resumable: ${TUS_VERSION}`);
  }
  if (req.method === 'PATCH') {
    if (req.headers['content-type'] !== OCTETS)
      throw fail('UNSUPPORTED_MEDIA_TYPE', `PATCH bodies must be ${OCTETS}`);
    if (!/^\d{1,16}$/.test(String(req.headers['upload-offset'] ?? '')))
      throw fail('VALIDATION', 'Upload-Offset must be a byte count');
  }
  if (req.method === 'POST' && !/^\d{1,16}$/.test(String(req.headers['upload-length'] ?? ''))) {
    throw fail('VALIDATION', 'Upload-Length must be a byte count');
  }
}

/** tus bodies are read by tus itself, as a stream: Fastify must leave them alone. */
export const TUS_BODY_TYPE = OCTETS;

/**
 * tus 1.0.0 at /upload/resumable (creation, creation-with-upload, termination), served by `@tus/server`
 * on the portal's chunk store. Fastify checks the session and the caller's ownership of the upload and
 * the protocol headers (answering in the API's error envelope), then hands the raw request to tus.
 */
export function resumableRoutes(ctx: FilesContext, datastore: ChunkTusStore): FastifyPluginAsyncZod {
  const callers = new WeakMap<IncomingMessage, string>();
  /** The upload a creation request made, so its connection entry goes when the request ends. */
  const created = new WeakMap<IncomingMessage, string>();
  const makeServer = (TusServer: typeof Server) =>
    createTusServer(TusServer, ctx, datastore, {
      path: RESUMABLE_UPLOAD_PATH,
      ownerOf: (raw) => callers.get(raw),
      created,
    });
  /** @tus/server, loaded and made on the first resumable request: it costs nothing at start-up (bench/startup). */
  let tus: Promise<Server> | undefined;
  const loadTus = () => {
    tus ??= import('@tus/server').then(({ Server }) => makeServer(Server));
    return tus;
  };

  const ownUpload = async (req: FastifyRequest, id: string) => {
    const row = await findItem(ctx.db, id);
    // A guest's upload through one of the member's links is the link's (upload-requests/guest-routes.ts).
    if (
      row?.type !== 'file' ||
      row.owner_id !== req.auth!.user.discord_id ||
      row.status === 'complete' ||
      row.upload_request_id
    ) {
      throw fail('NOT_FOUND', 'Upload not found or expired');
    }
  };
  /** Hands the request to tus; a body (POST, PATCH) takes one of the member's upload slots meanwhile. */
  const handOver = async (req: FastifyRequest, reply: FastifyReply, fileId?: string) => {
    // Before the slot and the hijack: a failure to load is an ordinary error answer.
    const server = await loadTus();
    const userId = req.auth!.user.discord_id;
    const hasBody = req.method === 'PATCH' || req.method === 'POST';
    const release = hasBody ? ctx.uploadSlots.take(userId) : () => {};
    callers.set(req.raw, userId);
    // write() times the body and cuts this connection if it stalls.
    if (fileId) datastore.connections.set(fileId, req.raw);
    reply.hijack();
    try {
      await server.handle(req.raw, reply.raw);
    } finally {
      release();
      // The connection entry goes with its request (a refused or body-less creation included), so
      // neither the map nor the request objects it holds grow with abandoned uploads.
      const id = fileId ?? created.get(req.raw);
      if (id && datastore.connections.get(id) === req.raw) datastore.connections.delete(id);
    }
  };

  const plugin: FastifyPluginAsyncZod = async (app) => {
    // tus bodies are read by tus itself, as a stream: Fastify must leave them alone.
    app.addContentTypeParser(OCTETS, (_req, _payload, done) => done(null));
    const byId = { config: write, schema: { params: ResumableUploadParams, response: ResumableResponses } };

    app.post(
      RESUMABLE_UPLOAD_PATH,
      { config: write, schema: { response: ResumableResponses } },
      async (req, reply) => {
        precheckTus(req);
        // Quota, disk reserve and the open-uploads cap are checked against the declared Upload-Length
        // when tus creates the upload (ChunkTusStore.create), in the transaction that inserts its row.
        await handOver(req, reply);
      },
    );
    app.head(`${RESUMABLE_UPLOAD_PATH}/:fileId`, byId, async (req, reply) => {
      precheckTus(req);
      await ownUpload(req, req.params.fileId);
      await handOver(req, reply);
    });
    app.patch(`${RESUMABLE_UPLOAD_PATH}/:fileId`, byId, async (req, reply) => {
      precheckTus(req);
      await ownUpload(req, req.params.fileId);
      // Something else may have filled the disk since the upload was admitted: 507 before any byte.
      await checkDiskStillHolds(ctx.db, ctx.limits);
      await handOver(req, reply, req.params.fileId);
    });
    app.delete(`${RESUMABLE_UPLOAD_PATH}/:fileId`, byId, async (req, reply) => {
      precheckTus(req);
      await ownUpload(req, req.params.fileId);
      await handOver(req, reply);
    });
  };
  return plugin;
}
