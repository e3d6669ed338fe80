/** Moves the item at `from` to `to` (both 0-based), as the server's reorder does; a new array. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = items.slice();
  if (from < 0 || from >= next.length || to < 0 || to >= next.length || from === to) return next;
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

/** Sum of durations in seconds (the Current Session's total music time). */
export function totalSeconds(songs: readonly { duration: number }[]): number {
  return songs.reduce((sum, s) => sum + s.duration, 0);
}
