import type { IncomingMessage } from 'node:http';
import multipart from '@fastify/multipart';
import {
  API_UPLOAD_PATH,
  ApiUploadQuery,
  ApiUploadResponse,
  ItemResponse,
  UploadCompleteBody,
  UploadIdParams,
  UploadStartResponse,
  UploadStatusResponse,
} from '@guildhall/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fail, HttpError } from '../../platform/errors.ts';
import { dateOn } from '../../platform/time.ts';
import type { FilesFeatureConfig } from './config.ts';
import type { FilesContext } from './context.ts';
import { watchBody } from './fair-uploads.ts';
import { presentItem } from './present.ts';
import { findItem } from './repo.ts';
import { shareBaseUrl } from './shares/base-url.ts';
import { presentShare } from './shares/present.ts';
import { createShare } from './shares/service.ts';
import { completeUpload, receiveUpload, tooLarge, type UploadPart, uploadStatus } from './upload.ts';

const write = { access: 'user' } as const;
/** Room for the multipart boundaries and small fields around the file in a Content-Length. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/**
 * What a Content-Length carries besides the file in practice (boundaries, headers, the short folderId and
 * category fields): the file's size for the quota check is the Content-Length less this.
 */
const MULTIPART_USUAL_OVERHEAD_BYTES = 8 * 1024;

/**
 * The spec's upload protocol. Multipart is registered in this scope only, and bodies stream: the
 * file is cut into chunks as it arrives, so no upload is ever held whole in memory.
 */
export function uploadRoutes(ctx: FilesContext, config: FilesFeatureConfig): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, {
      limits: {
        // Our own counter enforces maxUploadBytes while streaming; this is only a backstop.
        fileSize: ctx.maxUploadBytes + 1,
        files: 2,
        fields: 10,
        fieldSize: 4096,
        parts: 12,
        headerPairs: 32,
      },
    });

    // An answer sent before the whole body arrived (413, a bad folder): keep reading and discarding
    // the rest for a while, so the client gets to read the answer instead of a connection reset, but
    // cut the connection once that grows too long or too large.
    app.addHook('onSend', async (req, reply) => {
      if (!req.raw.complete && !req.raw.readableEnded)
        reply.raw.once('finish', () => lingerThenClose(req.raw));
    });

    /** The multipart body's one file, streamed into the store: `{fileId, totalChunks}` of a stored upload. */
    const receive = async (req: FastifyRequest) => {
      if (!req.isMultipart()) {
        throw fail(
          'UNSUPPORTED_MEDIA_TYPE',
          'Upload must be multipart/form-data with the file in the field "file"',
        );
      }
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > ctx.maxUploadBytes + MULTIPART_OVERHEAD_BYTES) {
        throw tooLarge(ctx.maxUploadBytes);
      }
      const userId = req.auth!.user.discord_id;
      const release = ctx.uploadSlots.take(userId);
      try {
        // Quota and disk reserve: admitted (or refused with 507) before the body is read, against the
        // declared size; a body of unknown length reserves room as it goes (receiveUpload).
        const estimate = Number.isFinite(declared)
          ? Math.max(0, declared - MULTIPART_USUAL_OVERHEAD_BYTES)
          : null;
        const parts = guardParts(req.parts() as AsyncIterable<UploadPart>);
        // A body that stalls or trickles is cut off; receiveUpload's cleanup then removes what it stored.
        const cut = () => req.raw.socket?.destroy();
        const watched = watchParts(parts, (file) => watchBody(file, ctx.fairness, cut, asClientError));
        return await receiveUpload(ctx, userId, watched, estimate);
      } finally {
        release();
      }
    };

    app.post(
      '/upload',
      { config: write, schema: { response: { 200: UploadStartResponse } } },
      async (req) => ({ success: true as const, ...(await receive(req)) }),
    );

    // For API tokens (issue 45): one request stores, completes and shares the file, and answers the
    // share URL (what ShareX and `curl -F file=@x.png` want). The same streaming, quota-checked path.
    app.post(
      API_UPLOAD_PATH,
      {
        config: { ...write, tokenScope: 'upload' },
        schema: { querystring: ApiUploadQuery, response: { 201: ApiUploadResponse } },
      },
      async (req, reply) => {
        const userId = req.auth!.user.discord_id;
        const { fileId, totalChunks } = await receive(req);
        const stored = await findItem(ctx.db, fileId);
        const file = await completeUpload(ctx, userId, {
          fileId,
          fileName: stored?.name ?? 'upload',
          fileSize: Number(stored?.size ?? 0),
          totalChunks,
        });
        const now = dateOn(ctx.clock);
        const share = await createShare(
          ctx.db,
          file.id,
          userId,
          { accessLevel: req.query.accessLevel ?? 'public' },
          now,
        );
        const data = presentShare(share, shareBaseUrl(config, req), now.getTime());
        return reply
          .code(201)
          .send({ success: true as const, url: data.url, file: presentItem(file), share: data });
      },
    );

    app.get(
      '/upload/status/:fileId',
      { config: write, schema: { params: UploadIdParams, response: { 200: UploadStatusResponse } } },
      async (req) => ({
        success: true as const,
        ...(await uploadStatus(ctx.db, req.auth!.user.discord_id, req.params.fileId)),
      }),
    );

    app.post(
      '/upload/complete',
      { config: write, schema: { body: UploadCompleteBody, response: { 200: ItemResponse } } },
      async (req) => {
        const row = await completeUpload(ctx, req.auth!.user.discord_id, req.body);
        return { success: true as const, data: presentItem(row), message: 'Upload complete' };
      },
    );
  };
}

/** How much of an unwanted body is read and dropped after an early answer before the socket is cut. */
const LINGER_BYTES = 64 * 1024 * 1024;
const LINGER_MS = 10_000;

function lingerThenClose(raw: IncomingMessage): void {
  if (raw.complete || raw.readableEnded) return;
  let drained = 0;
  const cut = () => {
    const socket = raw.socket as { destroy?: () => void } | null;
    if (typeof socket?.destroy === 'function') socket.destroy();
  };
  const timer = setTimeout(cut, LINGER_MS);
  timer.unref();
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > LINGER_BYTES) {
      clearTimeout(timer);
      cut();
    }
  });
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}

/** Parser failures (truncated or malformed multipart) become 400s naming the problem, never 500s. */
function asClientError(e: unknown): unknown {
  if (e instanceof HttpError) return e;
  const status = (e as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return e;
  const message = e instanceof Error ? e.message : String(e);
  return fail('BAD_MULTIPART', `Malformed upload: ${message}`);
}

async function* guardParts(parts: AsyncIterable<UploadPart>): AsyncGenerator<UploadPart> {
  try {
    for await (const part of parts) {
      yield part;
    }
  } catch (e) {
    throw asClientError(e);
  }
}

/**
 * Times each file part's bytes, and maps its parse failures to 400s (`watch` does both in one layer;
 * the fields are small and bounded by the multipart limits).
 */
async function* watchParts(
  parts: AsyncIterable<UploadPart>,
  watch: (file: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array>,
): AsyncGenerator<UploadPart> {
  for await (const part of parts) yield part.type === 'file' ? { ...part, file: watch(part.file) } : part;
}
