import type { Clock } from './feature.ts';

/** Timestamps are stored as ISO-8601 text (portable across SQLite and PostgreSQL). */
export function nowIso(): string {
  return new Date().toISOString();
}

export function isoIn(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

/** The clock's time as a Date (a feature's "now", so its tests move time instead of waiting). */
export function dateOn(clock: Clock): Date {
  return new Date(clock.now());
}

/** The clock's time as stored text (ISO-8601). */
export function isoOn(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
