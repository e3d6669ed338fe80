/**
 * Letter hints (issue 29, docs/minigames.md "Turns"). A turn with `n` hints reveals one letter per hint at
 * evenly spaced moments of the drawing phase (the lobby's drawing time T, 80 s by default): hint k at
 * k × T / (n + 1) after the word was chosen.
 * Rules: a hint never reveals the last letter of any word of the phrase (words split at spaces and hyphens);
 * at most ⌊(letters − 1) / 2⌋ letters are ever revealed, so always fewer than half; `n` is the lobby's setting
 * (0–3) cut to what the word allows. Spaces, hyphens and other non-letters show from the start (`wordPattern`).
 */

const LETTER = /[\p{L}\p{N}]/u;

/** Positions (in code points) a hint may reveal: letters and digits that are not the last of their word. */
export function hintCandidates(word: string): number[] {
  const chars = [...word];
  const out: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (!LETTER.test(chars[i]!)) continue;
    const next = chars[i + 1];
    if (next !== undefined && LETTER.test(next)) out.push(i);
  }
  return out;
}

/** How many letters a word may reveal with `setting` hints: never half of its letters or more. */
export function hintLimit(word: string, setting: number): number {
  const letters = [...word].filter((c) => LETTER.test(c)).length;
  return Math.max(0, Math.min(setting, Math.floor((letters - 1) / 2), hintCandidates(word).length));
}

/** The positions this turn's hints reveal, in order (a random pick of the candidates, fixed for the turn). */
export function hintOrder(word: string, setting: number, random: () => number): number[] {
  const pool = hintCandidates(word);
  const order: number[] = [];
  for (let k = hintLimit(word, setting); k > 0; k--) {
    const i = Math.floor(random() * pool.length);
    order.push(pool.splice(i, 1)[0]!);
  }
  return order;
}

/** When hint `k` (1-based) of `count` is due, for a drawing phase of `drawMs` that started at `drawStart` (ms). */
export function hintDueAt(drawStart: number, drawMs: number, k: number, count: number): number {
  return drawStart + Math.round((k * drawMs) / (count + 1));
}

/** The word as a guesser sees it: blanks for letters, except the revealed positions; non-letters kept. */
export function maskedWord(word: string, revealed: readonly number[]): string {
  const shown = new Set(revealed);
  return [...word].map((c, i) => (LETTER.test(c) && !shown.has(i) ? '_' : c)).join('');
}
