import { z } from 'zod';
import { FileItem, FileShare, SHARE_ACCESS_LEVELS } from './files.ts';

/**
 * Personal API tokens (issue 45): named, scoped, expiring bearer tokens for ShareX, Flameshot and
 * scripts. Stored only as a SHA-256; shown once at creation. A token acts as its member (their level,
 * read on every request) but only on the routes its scopes name; admin routes never take one.
 */

export const API_TOKEN_SCOPES = ['upload', 'files:read', 'shares'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  upload: 'Upload files (and get a share link)',
  'files:read': 'List and download your own uploads',
  shares: 'Manage share links',
};
/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'gh_';
export const API_TOKEN_NAME_MAX_CHARS = 64;
export const API_TOKEN_MAX_DAYS = 366;
export const API_TOKEN_EXPIRY_CHOICES_DAYS = [7, 30, 90, 365] as const;
/** Live (unrevoked, unexpired) tokens one member may hold. */
export const API_TOKENS_PER_MEMBER = 25;
/** Token creations per member per hour (then 429). */
export const API_TOKEN_CREATES_PER_HOUR = 30;
/** Requests per minute one member's tokens may make together, on top of the per-address limit. */
export const API_TOKEN_REQUESTS_PER_MINUTE = 120;
/** The upload endpoint for tokens: `curl -H "Authorization: Bearer <token>" -F file=@x.png <origin>/api/upload`. */
export const API_UPLOAD_PATH = '/api/upload';
/** Your own uploads, for a token with `files:read`. */
export const API_MY_FILES_PATH = '/api/files/mine';

export const API_TOKEN_TEXTS = {
  invalid: 'This API token is unknown, revoked or expired',
  scopeMissing: (scope: string) => `This API token lacks the "${scope}" scope`,
  notForTokens: 'This route does not accept API tokens; sign in instead',
  tooMany: `You have ${API_TOKENS_PER_MEMBER} live API tokens; revoke one first`,
  shownOnce: 'Copy it now: it is shown only once.',
  revoked: 'Token revoked',
} as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const ApiTokenCreateBody = z.object({
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .min(1, { error: 'name is required' })
    .max(API_TOKEN_NAME_MAX_CHARS, { error: `name must be at most ${API_TOKEN_NAME_MAX_CHARS} characters` })
    .refine((v) => !CONTROL.test(v) && v.isWellFormed(), { error: 'name must be one line of text' }),
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES, { error: `scopes are ${API_TOKEN_SCOPES.join(', ')}` }), {
      error: 'scopes must be a list',
    })
    .min(1, { error: 'choose at least one scope' })
    .max(API_TOKEN_SCOPES.length, { error: 'too many scopes' })
    .refine((v) => new Set(v).size === v.length, { error: 'scopes must not repeat' }),
  expiresInDays: z
    .number({ error: 'expiresInDays must be a number' })
    .int({ error: 'expiresInDays must be an integer' })
    .min(1, { error: 'expiresInDays must be at least 1' })
    .max(API_TOKEN_MAX_DAYS, { error: `expiresInDays must be at most ${API_TOKEN_MAX_DAYS}` }),
});
export type ApiTokenCreateBody = z.infer<typeof ApiTokenCreateBody>;

export const ApiToken = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  /** The first characters of the token, to tell tokens apart (never enough to use one). */
  hint: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  isExpired: z.boolean(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const ApiTokenIdParams = z.object({
  id: z.string().min(1).max(64, { error: 'id is too long' }),
});
export const ApiTokensListResponse = z.object({ success: z.literal(true), data: z.array(ApiToken) });
export type ApiTokensListResponse = z.infer<typeof ApiTokensListResponse>;
export const ApiTokenCreateResponse = z.object({
  success: z.literal(true),
  /** The token itself: shown this once, never again. */
  token: z.string(),
  data: ApiToken,
});
export type ApiTokenCreateResponse = z.infer<typeof ApiTokenCreateResponse>;

/**
 * Query of POST /api/upload: who the upload's share is for (public by default; permanent). The folder,
 * as for POST /upload, is a multipart field `folderId` sent before the file (the root without it).
 */
export const ApiUploadQuery = z.object({
  accessLevel: z.enum(SHARE_ACCESS_LEVELS, { error: 'accessLevel must be user or public' }).optional(),
});
export const ApiUploadResponse = z.object({
  success: z.literal(true),
  /** The share link's URL (what ShareX copies). */
  url: z.string(),
  file: FileItem,
  share: FileShare,
});
export type ApiUploadResponse = z.infer<typeof ApiUploadResponse>;

export const MyFilesResponse = z.object({ success: z.literal(true), data: z.array(FileItem) });

/** A ShareX custom uploader (.sxcu) for this portal and token. */
export function sharexConfig(origin: string, token: string): Record<string, unknown> {
  return {
    Version: '15.0.0',
    Name: `Guildhall (${new URL(origin).host})`,
    DestinationType: 'ImageUploader, TextUploader, FileUploader',
    RequestMethod: 'POST',
    RequestURL: `${origin}${API_UPLOAD_PATH}`,
    Headers: { Authorization: `Bearer ${token}` },
    Body: 'MultipartFormData',
    FileFormName: 'file',
    URL: '{json:url}',
    ErrorMessage: '{json:error}',
  };
}

export const curlUploadExample = (origin: string, token: string) =>
  `curl -H "Authorization: Bearer ${token}" -F file=@x.png ${origin}${API_UPLOAD_PATH}`;
