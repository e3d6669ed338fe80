import os from 'node:os';
import path from 'node:path';
import { ApiError, type ErrorCode, genericCodeFor, isErrorCode, statusOfCode } from '@guildhall/common';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { BlobMissingError, ChunkCorruptError } from './blob-store/integrity.ts';

/** What a member is told when a stored chunk fails its checksum (the log has the details). */
export const STORED_DATA_DAMAGED =
  "This file's stored data is damaged, so it cannot be sent. An admin can find damaged files with `npm run admin -- storage verify`.";

/** What a member is told when a stored chunk is not in its store any more (the log names it). */
export const STORED_DATA_MISSING =
  "This file's stored data is missing, so it cannot be sent. An admin can list such files with `npm run admin -- storage verify`.";

/** What a member is told while the database cannot be reached (a restart, a network cut). */
export const DATABASE_UNAVAILABLE =
  'The portal cannot reach its database right now. Please try again in a moment.';

/** PostgreSQL's "cannot serve now" classes: connection exceptions (08…) and operator intervention (57P0…). */
const PG_UNAVAILABLE = /^(08\d{3}|57P0[1-4])$/;
const PG_CLIENT_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/** An error from a database that cannot be reached right now (as opposed to a query that is wrong). */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if ((e as { databaseUnavailable?: unknown }).databaseUnavailable === true) return true;
    if (typeof code === 'string' && PG_UNAVAILABLE.test(code)) return true;
    if (PG_CLIENT_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/**
 * An error the client can act on: a code of the catalogue (common/src/error-codes.ts), the status that
 * code always has, and a message. Throw it with `fail(code, message)`.
 */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  /** Headers the answer carries (a 429's Retry-After). */
  readonly headers?: Record<string, string>;
  constructor(code: ErrorCode, message: string, headers?: Record<string, string>) {
    super(message);
    this.statusCode = statusOfCode(code);
    this.code = code;
    this.headers = headers;
  }
}

/** The error for an answer the client can act on: `throw fail('NOT_FOUND', 'Game not found')`. */
export function fail(code: ErrorCode, message: string, headers?: Record<string, string>): HttpError {
  return new HttpError(code, message, headers);
}

/** The catalogue code an error answer carries: its own when it is one, else the status's generic one. */
export function codeFor(status: number, code: unknown): ErrorCode {
  return isErrorCode(code) && statusOfCode(code) === status ? code : genericCodeFor(status);
}

type ValidationIssue = { instancePath?: string; message?: string };

/** "body.code: Expected string" → a short sentence naming the field. */
export function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return 'Invalid request';
  const field = (first.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const message = first.message ?? 'is invalid';
  const where = field || context || 'request';
  if (field && message.includes(field.split('.').at(-1) ?? field)) return message;
  return `${where}: ${message}`;
}

/**
 * Directories of this server that must never appear in an answer (a message that carries a file path
 * tells an attacker the layout of the host): the data directory and web root the app is built with,
 * plus the process's own places. Paths below them are replaced by "[server path]".
 */
function serverPathScrubber(extra: string[]): (message: string) => string {
  const here = import.meta.dirname; // server/src/platform, or server/dist in the bundle
  const roots = [
    ...extra,
    process.cwd(),
    os.tmpdir(),
    os.homedir(),
    path.resolve(here, '../..'),
    path.resolve(here, '../../..'),
  ]
    .filter((p) => p && p !== '/' && p.length > 1)
    .map((p) => path.resolve(p))
    .sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(?:${roots.map(escapeRegExp).join('|')})(?:/[^\\s'"\`),;:]*)?`, 'g');
  return (message) => message.replace(pattern, '[server path]');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Maps every error to the spec's envelope {success: false, error, code?}; only genuine faults are 500. */
export function registerErrorHandling(app: FastifyInstance, options: { serverPaths?: string[] } = {}): void {
  const scrub = serverPathScrubber(options.serverPaths ?? []);
  // Every route declares its success responses; the error envelope is the same everywhere, so it is
  // added here (validated and documented like the rest) unless a route states its own.
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (!response) return;
    route.schema = { ...route.schema, response: { '4xx': ApiError, '5xx': ApiError, ...response } };
  });
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // An error is a JSON answer, whatever a download route had set up for its bytes before failing.
    for (const name of ['content-disposition', 'content-range', 'content-length']) reply.removeHeader(name);
    reply.header('content-type', 'application/json; charset=utf-8');
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.code(400).send({
        success: false,
        error: scrub(describeValidation(err.validationContext, err.validation)),
        code: 'VALIDATION' satisfies ErrorCode,
      });
    }
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return reply.code(err.statusCode).send({ success: false, error: scrub(err.message), code: err.code });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals (FST_ERR_…: bad JSON, body too large) get the catalogue's generic codes.
      return reply
        .code(status)
        .send({ success: false, error: scrub(clientMessage(err)), code: codeFor(status, err.code) });
    }
    if (isDatabaseUnavailable(err)) {
      // Not a bug: the database is restarting or unreachable. The pool reconnects by itself.
      request.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
      reply.header('retry-after', '5');
      return reply
        .code(503)
        .send({ success: false, error: DATABASE_UNAVAILABLE, code: 'DATABASE_UNAVAILABLE' });
    }
    request.log.error({ err }, 'request failed');
    return reply.code(faultStatus(err)).send(serverFault(err));
  });
}

/** The status of `serverFault`'s answer: 410 for data gone from its store, 500 for any other fault. */
export function faultStatus(err: unknown): 410 | 500 {
  return err instanceof BlobMissingError ? 410 : 500;
}

/**
 * The answer for a fault of ours: a damaged stored chunk says so (caught before any byte of a download
 * went out), as does one gone from its store (410, `faultStatus`); anything else is "Internal server
 * error". Routes that write their own response (a download sent straight to the socket) answer with the
 * same body and status.
 */
export function serverFault(err: unknown): { success: false; error: string; code: ErrorCode } {
  if (err instanceof ChunkCorruptError) {
    return { success: false, error: STORED_DATA_DAMAGED, code: 'STORED_DATA_DAMAGED' };
  }
  if (err instanceof BlobMissingError) {
    return { success: false, error: STORED_DATA_MISSING, code: 'STORED_DATA_MISSING' };
  }
  return { success: false, error: 'Internal server error', code: 'INTERNAL' };
}

function clientMessage(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is not valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type';
    default:
      return err.message;
  }
}
