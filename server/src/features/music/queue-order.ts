import type { SearchResult, Song } from '@guildhall/common';

/** Whose request a song is: the requester's Discord id (their name for entries made before ids were kept). */
export function requesterKey(song: Song): string {
  return song.requestedBy.id ?? `name:${song.requestedBy.displayName}`;
}

/** The same song, wherever it is queued from: its platform and the source's id. */
export function songKey(song: Pick<SearchResult, 'platform' | 'id'>): string {
  return `${song.platform}:${song.id}`;
}

/**
 * Where a member's new song goes in the queue.
 *
 * First come, first served: at the end, but always before the songs autoplay added (a member's request
 * goes first). Fair queue (issue 48): round-robin by requester. A requester's
 * n-th waiting song (counting the one playing as their first) belongs to round n, and within a round the
 * members take turns in the order they first appear (the one playing first, newcomers last). The new song
 * goes after the last entry that comes before it in that order, so each member gets one song per round and
 * a member who queued ten songs cannot hold the others back. The queue's own order is the whole state:
 * songs moved by hand stay where they were put, and the stored queue carries the order through a restart
 * or a handover.
 */
export function insertionIndex(
  queue: readonly Song[],
  current: Song | null,
  song: Song,
  fair: boolean,
): number {
  const firstAutoplay = queue.findIndex((s) => s.autoplay === true);
  const end = firstAutoplay < 0 ? queue.length : firstAutoplay;
  if (!fair) return end;
  const rank = new Map<string, number>();
  const count = new Map<string, number>();
  const keyOf = (s: Song): [number, number] => {
    const who = requesterKey(s);
    if (!rank.has(who)) rank.set(who, rank.size);
    const round = count.get(who) ?? 0;
    count.set(who, round + 1);
    return [round, rank.get(who) as number];
  };
  if (current && current.autoplay !== true) keyOf(current);
  const keys = queue.slice(0, end).map(keyOf);
  const mine = keyOf(song);
  const before = ([round, turn]: [number, number]) =>
    round < mine[0] || (round === mine[0] && turn <= mine[1]);
  let at = 0;
  keys.forEach((k, i) => {
    if (before(k)) at = i + 1;
  });
  return at;
}
