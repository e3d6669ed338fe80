import { NAME_MAX_CHARS } from '@guildhall/common';

/** The key duplicates are found by: NFC-normalized and lower-cased, as case-insensitive file systems do. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** The parent key of a folder id (null = the root, stored as ''). */
export function parentKeyOf(folderId: string | null | undefined): string {
  return folderId ?? '';
}

/**
 * The n-th "keep both" variant of a name, as browsers and file managers number copies:
 * "report.pdf" → "report (1).pdf", "notes" → "notes (1)", ".env" → ".env (1)". The base is shortened
 * when needed so the result stays within 255 characters.
 */
export function numberedName(name: string, n: number): string {
  const suffix = ` (${n})`;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot) : '';
  const room = NAME_MAX_CHARS - [...suffix].length - [...ext].length;
  if (room < 1) return [...name].slice(0, NAME_MAX_CHARS - [...suffix].length).join('') + suffix;
  const base = [...(dot > 0 ? name.slice(0, dot) : name)].slice(0, room).join('');
  return `${base}${suffix}${ext}`;
}

/** True for a unique-index violation on SQLite or PostgreSQL. */
export function isUniqueViolation(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  return code === '23505' || /UNIQUE constraint failed/i.test(e.message);
}
