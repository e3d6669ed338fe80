import fs from 'node:fs';
import path from 'node:path';
import type { PictionaryWordBank } from '@guildhall/common';

/** The banks shipped with the project, in the order the lobby lists them. */
const BANKS: { id: string; name: string }[] = [
  { id: 'general', name: 'General' },
  { id: 'animals', name: 'Animals' },
  { id: 'food', name: 'Food & Drink' },
  { id: 'objects', name: 'Objects' },
  { id: 'actions', name: 'Actions' },
  { id: 'places', name: 'Places' },
];

/**
 * Where the bank files are: beside this module in the sources (`word-banks/`), and beside the bundle in
 * production (server/build.ts copies them to server/dist/word-banks).
 */
const DIR = path.join(import.meta.dirname, 'word-banks');

let loaded: Map<string, string[]> | null = null;

/** Reads every bank once (one word per line; blank lines and `#` comments ignored). */
function banks(): Map<string, string[]> {
  if (loaded) return loaded;
  const map = new Map<string, string[]>();
  for (const b of BANKS) {
    const text = fs.readFileSync(path.join(DIR, `${b.id}.txt`), 'utf8');
    const words = text
      .split('\n')
      .map((l) => l.trim().toLowerCase())
      .filter((l) => l && !l.startsWith('#'));
    map.set(b.id, [...new Set(words)]);
  }
  loaded = map;
  return map;
}

export function listWordBanks(): PictionaryWordBank[] {
  const map = banks();
  return BANKS.map((b) => ({ ...b, count: map.get(b.id)!.length }));
}

export function isWordBank(id: string): boolean {
  return banks().has(id);
}

/** Every word of the selected banks plus the custom words, without duplicates. */
export function wordPool(bankIds: readonly string[], customWords: readonly string[]): string[] {
  const map = banks();
  const pool = new Set<string>();
  for (const id of bankIds) for (const w of map.get(id) ?? []) pool.add(w);
  for (const w of customWords) pool.add(w);
  return [...pool];
}

/**
 * `count` different words of the pool for the drawer to choose from, preferring words not used (offered)
 * yet in this game; fewer only when the pool itself is smaller.
 */
export function pickWords(
  pool: readonly string[],
  used: readonly string[],
  count: number,
  random: () => number,
): string[] {
  const usedSet = new Set(used);
  const fresh = pool.filter((w) => !usedSet.has(w));
  const stale = pool.filter((w) => usedSet.has(w));
  const out: string[] = [];
  for (const from of [fresh, stale]) {
    const left = [...from];
    while (out.length < count && left.length > 0)
      out.push(left.splice(Math.floor(random() * left.length), 1)[0]!);
  }
  return out;
}
