/**
 * What a member reads when the server fails (issue 17: raw server text such as "boom" never reaches
 * the user). One mapping for every feature: apiFetch applies it to every API answer, and the upload
 * path (which does not go through apiFetch) to its own.
 *
 * - 4xx: the server's own words (the spec's texts: "Invalid access code", "File Not Found"...).
 * - 5xx with a code other than INTERNAL: a fault the server chose to report and worded for members
 *   ("Bot is offline", "Storage quota exceeded", OAuth not configured...): kept.
 * - Any other 5xx text (an uncaught exception's message, "Internal server error", a proxy's page
 *   text): this friendly line. A 5xx with no text at all keeps the spec's "HTTP {status}".
 */
export const SERVER_FAULT_TEXT = 'The server could not answer just now. Try again in a moment.';

export function shownServerMessage(status: number, message: string, code?: string): string {
  if (status < 500) return message;
  const deliberate = typeof code === 'string' && code !== '' && code !== 'INTERNAL';
  return deliberate ? message : SERVER_FAULT_TEXT;
}
