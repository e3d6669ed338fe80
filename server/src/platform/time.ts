import type { Clock } from './feature.ts';

/*
 * Time as features store it: ISO-8601 text (portable across SQLite and PostgreSQL), always read from a
 * clock (the feature's `ctx.clock`: the real one in production, a driven one in tests), never the wall.
 */

/** The clock's time as a Date (a feature's "now", so its tests move time instead of waiting). */
export function dateOn(clock: Clock): Date {
  return new Date(clock.now());
}

/** The clock's time as stored text (ISO-8601). */
export function isoOn(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}

/** `ms` after the clock's time, as stored text (an expiry, a lease). */
export function isoIn(clock: Clock, ms: number): string {
  return new Date(clock.now() + ms).toISOString();
}

/**
 * Wall time as stored text, for the platform's own records that several processes share (sessions, API
 * tokens, the server and the admin CLI alike). Features read their clock instead (the boundary test's
 * clock rule).
 */
export function wallNowIso(): string {
  return new Date().toISOString();
}

/** `ms` after wall time, as stored text (a session's expiry). */
export function wallIsoIn(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}
