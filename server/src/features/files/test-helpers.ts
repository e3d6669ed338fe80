import { randomBytes } from 'node:crypto';
import type { FileItem } from '@guildhall/common';
import type { App } from '../../platform/feature.ts';
import { bearer } from '../../test/app.ts';

/** A multipart/form-data body with text fields (in order) and an optional file part. */
export function multipart(
  fields: Record<string, string>,
  file?: { name: string; content: Buffer; field?: string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----guildhall${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function startUpload(
  app: App,
  token: string,
  content: Buffer,
  opts: { name?: string; folderId?: string; category?: string } = {},
) {
  const fields: Record<string, string> = {};
  if (opts.category !== undefined) fields.category = opts.category;
  if (opts.folderId !== undefined) fields.folderId = opts.folderId;
  const body = multipart(fields, { name: opts.name ?? 'file.bin', content });
  return app.inject({
    method: 'POST',
    url: '/upload',
    headers: { ...body.headers, ...bearer(token) },
    payload: body.payload,
  });
}

/** The whole spec protocol: POST /upload, then POST /upload/complete; returns the listed item. */
export async function uploadFile(
  app: App,
  token: string,
  name: string,
  content: Buffer,
  opts: { folderId?: string; category?: string } = {},
): Promise<FileItem> {
  const start = await startUpload(app, token, content, { name, ...opts });
  if (start.statusCode !== 200) throw new Error(`upload failed: ${start.statusCode} ${start.body}`);
  const { fileId, totalChunks } = start.json() as { fileId: string; totalChunks: number };
  const done = await app.inject({
    method: 'POST',
    url: '/upload/complete',
    headers: bearer(token),
    payload: { fileId, fileName: name, fileSize: content.length, totalChunks },
  });
  if (done.statusCode !== 200) throw new Error(`complete failed: ${done.statusCode} ${done.body}`);
  return (done.json() as { data: FileItem }).data;
}

export async function createFolder(
  app: App,
  token: string,
  name: string,
  parentId?: string,
): Promise<FileItem> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/folders',
    headers: bearer(token),
    payload: { name, parentId },
  });
  if (res.statusCode !== 201) throw new Error(`folder failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: FileItem }).data;
}

export async function listFolder(app: App, token: string, folderId?: string): Promise<FileItem[]> {
  const res = await app.inject({
    method: 'GET',
    url: folderId ? `/api/files?folderId=${folderId}` : '/api/files',
    headers: bearer(token),
  });
  if (res.statusCode !== 200) throw new Error(`list failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: FileItem[] }).data;
}
