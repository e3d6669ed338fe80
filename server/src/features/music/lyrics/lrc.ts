import type { LyricsLine } from '@guildhall/common';

const TIME_TAG = /\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/g;
const LEADING_TAGS = /^(\s*\[\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?\])+/;
const OFFSET_TAG = /^\s*\[offset:\s*([+-]?\d+)\s*\]\s*$/i;

/**
 * LRC text → lines with their start in seconds, in time order. A line may carry several time tags
 * (`[00:12.00][01:30.00]chorus`); `[offset:±ms]` shifts every line (positive = earlier, as the format says);
 * metadata tags (`[ar:…]`) and untimed lines are left out. Empty texts stay: they are the pauses.
 */
export function parseLrc(lrc: string): LyricsLine[] {
  let offsetS = 0;
  const lines: LyricsLine[] = [];
  for (const raw of lrc.split(/\r?\n/)) {
    const offset = OFFSET_TAG.exec(raw);
    if (offset) {
      offsetS = Number(offset[1]) / 1000;
      continue;
    }
    const tags = LEADING_TAGS.exec(raw);
    if (!tags) continue;
    const text = raw.slice(tags[0].length).trim();
    for (const m of tags[0].matchAll(TIME_TAG)) {
      const fraction = m[3] ? Number(m[3]) / 10 ** m[3].length : 0;
      const seconds = Number(m[1]) * 60 + Number(m[2]) + fraction;
      lines.push({ time: seconds, text });
    }
  }
  return lines
    .map((l) => ({ time: Math.max(0, Math.round(((l.time ?? 0) - offsetS) * 1000) / 1000), text: l.text }))
    .sort((a, b) => a.time - b.time);
}

/** Plain lyrics → lines without times (blank lines kept: they separate verses). */
export function plainLines(text: string): LyricsLine[] {
  const lines = text.replace(/\r\n/g, '\n').trim().split('\n');
  return lines.map((l) => ({ time: null, text: l.trim() }));
}
