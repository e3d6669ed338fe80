import type { IncomingMessage } from 'node:http';
import {
  GUEST_UPLOADS_PER_ADDRESS_PER_HOUR,
  GuestUploadParams,
  GuestUploadReceiptResponse,
  ResumableResponses,
  SHARE_PASSWORD_HEADER,
  SHARE_PASSWORD_MAX_FAILURES,
  SHARE_PASSWORD_WINDOW_MS,
  UPLOAD_REQUEST_TEXTS,
  UploadRequestGuestInfoResponse,
  UploadRequestTokenParams,
} from '@guildhall/common';
import type { Server } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientAddressKey } from '../../../platform/client-address.ts';
import { fail } from '../../../platform/errors.ts';
import type { FilesContext } from '../context.ts';
import { findItem } from '../repo.ts';
import { createTusServer, precheckTus, TUS_BODY_TYPE } from '../resumable/routes.ts';
import type { ChunkTusStore } from '../resumable/tus-store.ts';
import { requireSharePassword } from '../shares/password.ts';
import { checkDiskStillHolds } from '../storage-limits/service.ts';
import type { UploadRequestsTable } from '../tables.ts';
import { presentGuestInfo, presentReceipt } from './present.ts';
import { findOwnerName, findRequestById } from './repo.ts';
import { completeGuestUpload, findOpenRequest, roomLeft } from './service.ts';

const open = { access: 'public' } as const;
const TUS_PATH = '/api/requests/:token/uploads';

/**
 * A guest's side of an upload request (docs/files.md, "Upload requests"), signed out: the request's
 * texts and room left, the same resumable (tus) upload members use on the same chunk store, and a
 * receipt per file. Every call checks the link (open, password); a closed link stops uploads at once.
 * The bytes are the owner's: their quota, the disk reserve and their open-uploads cap admit each file,
 * and the request's own limits in the same step (tus-store.ts create, service.ts admitGuestUpload).
 */
export function guestUploadRoutes(ctx: FilesContext, datastore: ChunkTusStore): FastifyPluginAsyncZod {
  const { db } = ctx;
  /** Who a creation request uploads for: the request's owner, into the request's folder. */
  const callers = new WeakMap<IncomingMessage, UploadRequestsTable>();
  const created = new WeakMap<IncomingMessage, string>();
  // The last byte lists the file at once, even if the guest's page is gone by then (a closed link included).
  datastore.onGuestStored = async (fileId, requestId) => {
    const request = await findRequestById(db, requestId);
    if (request) await completeGuestUpload(ctx, request, fileId);
  };

  let tus: Promise<Server> | undefined;
  const loadTus = () => {
    tus ??= import('@tus/server').then(({ Server }) =>
      createTusServer(Server, ctx, datastore, {
        path: '/api/requests',
        ownerOf: (raw) => callers.get(raw)?.owner_id,
        created,
        // The upload's address is under its request's: /api/requests/{token}/uploads/{id}.
        underCreatingPath: true,
        onNamed: (raw, id) => {
          const request = callers.get(raw);
          if (request) datastore.guests.set(id, { requestId: request.id, folderId: request.folder_id });
        },
      }),
    );
    return tus;
  };

  return async (app) => {
    app.addContentTypeParser(TUS_BODY_TYPE, (_req, _payload, done) => done(null));
    const passwordFailures = app.createFailureLimiter(
      'upload-request-password',
      SHARE_PASSWORD_MAX_FAILURES,
      SHARE_PASSWORD_WINDOW_MS,
    );
    /** The open request the link names, its password checked (the same header and limiter as shares). */
    const openRequest = async (req: FastifyRequest<{ Params: { token: string } }>) => {
      const request = await findOpenRequest(db, req.params.token, ctx.clock.now());
      await requireSharePassword(
        { password_hash: request.password_hash },
        req.headers[SHARE_PASSWORD_HEADER],
        passwordFailures,
        clientAddressKey(req.ip),
      );
      return request;
    };
    /** The guest's own upload of this request, not yet listed. */
    const requestUpload = async (request: UploadRequestsTable, fileId: string) => {
      const row = await findItem(db, fileId);
      if (row?.type !== 'file' || row.upload_request_id !== request.id || row.status === 'complete') {
        throw fail('NOT_FOUND', 'Upload not found or expired');
      }
    };
    /** Hands the request to tus; a body takes one of the request's upload slots meanwhile. */
    const handOver = async (
      req: FastifyRequest,
      reply: FastifyReply,
      request: UploadRequestsTable,
      fileId?: string,
    ) => {
      const server = await loadTus();
      const hasBody = req.method === 'PATCH' || req.method === 'POST';
      const release = hasBody ? ctx.uploadSlots.take(`request:${request.id}`) : () => {};
      callers.set(req.raw, request);
      if (fileId) datastore.connections.set(fileId, req.raw);
      reply.hijack();
      try {
        await server.handle(req.raw, reply.raw);
      } finally {
        release();
        const id = fileId ?? created.get(req.raw);
        if (id && datastore.connections.get(id) === req.raw) datastore.connections.delete(id);
      }
    };

    app.get(
      '/api/requests/:token',
      {
        config: open,
        schema: { params: UploadRequestTokenParams, response: { 200: UploadRequestGuestInfoResponse } },
      },
      async (req) => {
        const request = await openRequest(req);
        const [room, ownerName] = await Promise.all([
          roomLeft(db, request),
          findOwnerName(db, request.owner_id),
        ]);
        return { success: true as const, data: presentGuestInfo(request, ownerName ?? 'A member', room) };
      },
    );

    app.post(
      TUS_PATH,
      {
        config: {
          ...open,
          // Files one address may start sending, over every link: a link passed around cannot be
          // used to fill a member's storage from one place faster than this.
          rateLimit: {
            max: GUEST_UPLOADS_PER_ADDRESS_PER_HOUR,
            timeWindow: '1 hour',
            keyGenerator: (req: FastifyRequest) => `ip:${clientAddressKey(req.ip)}`,
            errorResponseBuilder: (_req: FastifyRequest, c: { ttl: number }) =>
              fail(
                'TOO_MANY_GUEST_UPLOADS',
                UPLOAD_REQUEST_TEXTS.tooManyFromAddress(Math.ceil(c.ttl / 1000)),
              ),
          },
        },
        schema: { params: UploadRequestTokenParams, response: ResumableResponses },
      },
      async (req, reply) => {
        precheckTus(req);
        const request = await openRequest(req);
        await handOver(req, reply, request);
      },
    );
    const byId = { config: open, schema: { params: GuestUploadParams, response: ResumableResponses } };
    app.head(`${TUS_PATH}/:fileId`, byId, async (req, reply) => {
      precheckTus(req);
      const request = await openRequest(req);
      await requestUpload(request, req.params.fileId);
      await handOver(req, reply, request);
    });
    app.patch(`${TUS_PATH}/:fileId`, byId, async (req, reply) => {
      precheckTus(req);
      const request = await openRequest(req);
      await requestUpload(request, req.params.fileId);
      await checkDiskStillHolds(db, ctx.limits);
      await handOver(req, reply, request, req.params.fileId);
    });
    app.delete(`${TUS_PATH}/:fileId`, byId, async (req, reply) => {
      precheckTus(req);
      const request = await openRequest(req);
      await requestUpload(request, req.params.fileId);
      await handOver(req, reply, request);
    });

    // The guest's receipt: lists the file if the last byte's request did not get to, then says what arrived.
    app.post(
      `${TUS_PATH}/:fileId/complete`,
      { config: open, schema: { params: GuestUploadParams, response: { 200: GuestUploadReceiptResponse } } },
      async (req) => {
        const request = await openRequest(req);
        const file = await completeGuestUpload(ctx, request, req.params.fileId);
        return { success: true as const, data: presentReceipt(file) };
      },
    );
  };
}
