/** Access levels in ascending order (portal-core §6). */
export const ACCESS_LEVELS = ['viewer', 'user', 'moderator', 'admin'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export function isAccessLevel(value: unknown): value is AccessLevel {
  return typeof value === 'string' && (ACCESS_LEVELS as readonly string[]).includes(value);
}

/** Rank of a level; a missing or unknown level counts as viewer. */
export function levelRank(level: string | null | undefined): number {
  return isAccessLevel(level) ? ACCESS_LEVELS.indexOf(level) : 0;
}

/** True when `level` is at or above `required`. */
export function hasLevel(level: string | null | undefined, required: AccessLevel): boolean {
  return levelRank(level) >= levelRank(required);
}

export const LEVEL_LABELS: Record<AccessLevel, string> = {
  viewer: 'Viewer',
  user: 'User',
  moderator: 'Moderator',
  admin: 'Admin',
};
