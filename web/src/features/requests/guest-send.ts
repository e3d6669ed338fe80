import { uploadRequestTusPath } from '@guildhall/common';
import { sendWithTus } from '../../api/tus-send.ts';
import { passwordHeaders } from './api.ts';

export type GuestSendResult = { ok: true; url: string } | { ok: false; message: string };

/** The server's message from an error body (the API's envelope), else the status. */
export function refusalMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string' && parsed.error) return parsed.error;
  } catch {
    // not JSON
  }
  return status === 0 ? 'The connection to the portal was lost' : `HTTP ${status}`;
}

/**
 * Sends one file to an upload link with tus, as the files page does for members (one 8 MiB chunk per
 * request; a dropped connection is retried, asking the server where it stands, with "Reconnecting…"
 * shown meanwhile; a refusal (4xx) is final and its message shown). Nothing signs it in: the link's
 * token is in the address, its password (if any) in a header.
 */
export async function sendToRequest(
  file: File,
  token: string,
  password: string | null,
  onProgress: (sent: number, total: number) => void,
  onReconnecting: (reconnecting: boolean) => void,
): Promise<GuestSendResult> {
  const sent = await sendWithTus(file, {
    endpoint: `${window.location.origin}${uploadRequestTusPath(encodeURIComponent(token))}`,
    metadata: { filename: file.name, filetype: file.type },
    headers: passwordHeaders(password),
    onProgress,
    onReconnecting,
  });
  return sent.ok ? sent : { ok: false, message: refusalMessage(sent.status, sent.body) };
}
