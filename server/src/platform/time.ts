/** Timestamps are stored as ISO-8601 text (portable across SQLite and PostgreSQL). */
export function nowIso(): string {
  return new Date().toISOString();
}

export function isoIn(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}
