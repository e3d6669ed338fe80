import {
  BinaryBody,
  FileIdParams,
  fileExtension,
  previewContentType,
  previewKindOf,
} from '@guildhall/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerToken, enforceAccess } from '../../platform/access.ts';
import { fail } from '../../platform/errors.ts';
import type { FilesContext } from './context.ts';
import { FILE_RESPONSES, TicketQuery, ticketExpired } from './download-routes.ts';
import { type Presentation, sendStoredFile } from './http-download.ts';
import { listChunks } from './repo.ts';
import { requireFile } from './service.ts';
import type { FilesTable } from './tables.ts';
import { noThumbnail, type Thumbnails } from './thumbnails/service.ts';
import { isTicketValid } from './tickets.ts';

/**
 * How a file is served for the preview viewer. Images, video, audio, PDF and text are sent inline with
 * their media type (text always as text/plain, so HTML shows as source); everything keeps the download's
 * `Content-Security-Policy: default-src 'none'; sandbox` and nosniff, so nothing runs in the portal's
 * origin even when the address is opened directly. SVG can carry scripts: it is served as an attachment
 * (opened directly, it downloads) and the viewer shows it only through <img>, where scripts never run.
 */
export function presentationOf(file: FilesTable): Presentation {
  const kind = previewKindOf(file.name);
  if (kind === 'none') return { contentType: 'application/octet-stream', inline: false };
  return { contentType: previewContentType(file.name), inline: fileExtension(file.name) !== 'svg' };
}

export const THUMBNAIL_RESPONSES = { 200: BinaryBody, 304: BinaryBody.meta({ description: 'Not modified' }) };

/** Sends a thumbnail (WebP), cached by the browser for a day; 304 on a matching If-None-Match. */
export async function sendThumbnail(
  req: FastifyRequest,
  reply: FastifyReply,
  thumbnails: Thumbnails,
  file: FilesTable,
): Promise<FastifyReply> {
  let thumb: Awaited<ReturnType<Thumbnails['get']>>;
  try {
    thumb = await thumbnails.get(file);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 503) throw err;
    req.log.warn({ err, fileId: file.id }, 'thumbnail could not be made');
    throw fail('THUMBNAIL_UNAVAILABLE', 'The thumbnail cannot be made right now');
  }
  if (!thumb) throw noThumbnail();
  reply
    .header('etag', thumb.etag)
    .header('cache-control', 'private, max-age=86400')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cross-origin-resource-policy', 'same-origin');
  if (req.headers['if-none-match'] === thumb.etag) return reply.code(304).send();
  return reply.type('image/webp').send(thumb.data);
}

/** GET /api/files/:id/preview (bearer or a download ticket) and GET /api/files/:id/thumbnail (bearer). */
export function previewRoutes(ctx: FilesContext, thumbnails: Thumbnails): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    app.get(
      '/api/files/:id/preview',
      {
        config: { access: 'public' },
        schema: { params: FileIdParams, querystring: TicketQuery, response: FILE_RESPONSES },
      },
      async (req, reply) => {
        const { id } = req.params;
        if (req.query.ticket !== undefined) {
          if (!(await isTicketValid(ctx, req.query.ticket, id, null))) throw ticketExpired();
        } else {
          enforceAccess('login', req.auth, bearerToken(req.headers.authorization) !== null);
        }
        const file = await requireFile(db, id);
        return sendStoredFile(
          req,
          reply,
          ctx,
          file,
          await listChunks(db, id),
          undefined,
          presentationOf(file),
        );
      },
    );

    app.get(
      '/api/files/:id/thumbnail',
      { config: { access: 'login' }, schema: { params: FileIdParams, response: THUMBNAIL_RESPONSES } },
      async (req, reply) => sendThumbnail(req, reply, thumbnails, await requireFile(db, req.params.id)),
    );
  };
}
