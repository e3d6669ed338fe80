import { PICTIONARY_CANVAS } from './pictionary.ts';
import type { PictionaryDrawItem, PictionaryFill, PictionarySegment } from './pictionary-api.ts';

/**
 * A turn's drawing as an ordered log (issue 29, docs/minigames.md "Drawing tools"), and the one rasterizer
 * every screen uses, so the drawer, every guesser, a reload and a late joiner end with the same pixels.
 *
 * Why our own rasterizer instead of the canvas's `lineTo`: a fill decides which pixels it covers by their
 * colour, and the canvas's antialiasing differs between browsers and GPUs; a fill on top of it could cover
 * different pixels on different screens. Here every line is a set of whole pixels (no antialiasing) computed
 * with plain IEEE arithmetic, which every JavaScript engine evaluates identically.
 */

/** One row of the log: a stroke's batch, a fill, an undo (of `strokeId`) or a clear. */
export type DrawLogEntry =
  | { kind: 'stroke' | 'fill'; strokeId: number; items: PictionaryDrawItem[] }
  | { kind: 'undo'; strokeId: number }
  | { kind: 'clear' };

function sinceLastClear(log: readonly DrawLogEntry[]): readonly DrawLogEntry[] {
  let start = 0;
  log.forEach((e, i) => {
    if (e.kind === 'clear') start = i + 1;
  });
  return log.slice(start);
}

/**
 * What the canvas shows: the items after the last clear, in order, each stamped with its stroke; an undo
 * removes the items of its stroke drawn before it (so a screen that numbers its strokes afresh after a reload
 * may reuse the id of a stroke it undid).
 */
export function resolveDrawing(log: readonly DrawLogEntry[]): PictionaryDrawItem[] {
  let out: PictionaryDrawItem[] = [];
  for (const e of sinceLastClear(log)) {
    if (e.kind === 'undo') out = out.filter((item) => item.strokeId !== e.strokeId);
    else if (e.kind !== 'clear') for (const item of e.items) out.push({ ...item, strokeId: e.strokeId });
  }
  return out;
}

/**
 * The wire form of a drawing: the stroke id only on the first item of each run of one stroke (a replay of a
 * full turn stays ≈ 1 MB); `expandStrokeIds` gives every item its stroke back.
 */
export function compactStrokeIds(items: readonly PictionaryDrawItem[]): PictionaryDrawItem[] {
  let previous: number | undefined;
  return items.map((item) => {
    const id = item.strokeId;
    if (id !== undefined && id === previous) {
      const { strokeId: _, ...rest } = item;
      return rest as PictionaryDrawItem;
    }
    previous = id;
    return item;
  });
}

export function expandStrokeIds(items: readonly PictionaryDrawItem[]): PictionaryDrawItem[] {
  let current: number | undefined;
  return items.map((item) => {
    if (item.strokeId !== undefined) current = item.strokeId;
    return current === undefined || item.strokeId !== undefined ? item : { ...item, strokeId: current };
  });
}

/** The stroke an undo removes now: the one of the last item still showing (null: nothing to undo). */
export function undoTarget(log: readonly DrawLogEntry[]): number | null {
  // By entries, not items (the server reads the log without its segments; every entry has at least one item).
  let shown: number[] = [];
  for (const e of sinceLastClear(log)) {
    if (e.kind === 'undo') shown = shown.filter((id) => id !== e.strokeId);
    else if (e.kind !== 'clear') shown.push(e.strokeId);
  }
  return shown.at(-1) ?? null;
}

/** The stroke of the last item of a drawing, if any. */
export function lastStroke(items: readonly PictionaryDrawItem[]): number | null {
  return items.at(-1)?.strokeId ?? null;
}

/** The drawing's pixels: RGBA, row by row, PICTIONARY_CANVAS.width × height. */
export type Raster = { width: number; height: number; data: Uint8ClampedArray };
/** The pixels an operation changed (to copy only those to the screen). */
export type Rect = { x: number; y: number; w: number; h: number };

export function createRaster(): Raster {
  const { width, height } = PICTIONARY_CANVAS;
  const data = new Uint8ClampedArray(width * height * 4);
  data.fill(255); // opaque white
  return { width, height, data };
}

export function clearRaster(r: Raster): void {
  r.data.fill(255);
}

/** `#rrggbb` → the 32-bit value of that opaque pixel as a Uint32Array over the raster reads it. */
function packed(color: string): number {
  const bytes = new Uint8Array([
    Number.parseInt(color.slice(1, 3), 16),
    Number.parseInt(color.slice(3, 5), 16),
    Number.parseInt(color.slice(5, 7), 16),
    255,
  ]);
  return new Uint32Array(bytes.buffer)[0]!;
}

const words = (r: Raster) => new Uint32Array(r.data.buffer, r.data.byteOffset, r.width * r.height);

/**
 * A segment as the pixels whose centre lies within `size / 2` of it (a round-capped line, so batches join
 * without a gap); at least 0.75 so a 1-unit dot always covers a pixel.
 */
export function paintSegment(r: Raster, s: PictionarySegment): Rect | null {
  const rad = Math.max(s.size / 2, 0.75);
  const r2 = rad * rad;
  const ax = s.from.x;
  const ay = s.from.y;
  const dx = s.to.x - ax;
  const dy = s.to.y - ay;
  const len2 = dx * dx + dy * dy;
  const x0 = Math.max(0, Math.floor(Math.min(ax, s.to.x) - rad));
  const x1 = Math.min(r.width - 1, Math.ceil(Math.max(ax, s.to.x) + rad));
  const y0 = Math.max(0, Math.floor(Math.min(ay, s.to.y) - rad));
  const y1 = Math.min(r.height - 1, Math.ceil(Math.max(ay, s.to.y) + rad));
  if (x0 > x1 || y0 > y1) return null;
  const px = words(r);
  const value = packed(s.color);
  for (let y = y0; y <= y1; y++) {
    const cy = y + 0.5;
    for (let x = x0; x <= x1; x++) {
      const cx = x + 0.5;
      const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, ((cx - ax) * dx + (cy - ay) * dy) / len2));
      const ex = cx - (ax + t * dx);
      const ey = cy - (ay + t * dy);
      if (ex * ex + ey * ey <= r2) px[y * r.width + x] = value;
    }
  }
  return { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/**
 * The fill rule: the pixel under the point (coordinates rounded down, on the 1000×600 drawing) and every
 * pixel reachable from it through up, down, left and right neighbours of exactly its colour take the fill's
 * colour. Tolerance 0 is enough because lines have no antialiased fringe: every pixel is one of the colours
 * drawn. Filling with the colour already there changes nothing.
 */
export function paintFill(r: Raster, f: PictionaryFill): Rect | null {
  const { width: w, height: h } = r;
  const sx = Math.min(w - 1, Math.floor(f.x));
  const sy = Math.min(h - 1, Math.floor(f.y));
  const px = words(r);
  const target = px[sy * w + sx]!;
  const value = packed(f.color);
  if (target === value) return null;
  let minX = sx;
  let maxX = sx;
  let minY = sy;
  let maxY = sy;
  // Scanline fill: each popped seed fills its whole run, then seeds the runs above and below it.
  const stack: number[] = [sx, sy];
  while (stack.length > 0) {
    const y = stack.pop()!;
    const x = stack.pop()!;
    const row = y * w;
    if (px[row + x] !== target) continue;
    let left = x;
    while (left > 0 && px[row + left - 1] === target) left--;
    let right = x;
    while (right < w - 1 && px[row + right + 1] === target) right++;
    for (let i = left; i <= right; i++) px[row + i] = value;
    if (left < minX) minX = left;
    if (right > maxX) maxX = right;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    for (const ny of [y - 1, y + 1]) {
      if (ny < 0 || ny >= h) continue;
      const nrow = ny * w;
      let inRun = false;
      for (let i = left; i <= right; i++) {
        const match = px[nrow + i] === target;
        if (match && !inRun) stack.push(i, ny);
        inRun = match;
      }
    }
  }
  return { x: minX, y: minY, w: maxX - minX + 1, h: maxY - minY + 1 };
}

export function paintItem(r: Raster, item: PictionaryDrawItem): Rect | null {
  return item.type === 'fill' ? paintFill(r, item) : paintSegment(r, item);
}

/** Paints items in order; the union of what changed. */
export function paintItems(r: Raster, items: readonly PictionaryDrawItem[]): Rect | null {
  let box: Rect | null = null;
  for (const item of items) box = union(box, paintItem(r, item));
  return box;
}

function union(a: Rect | null, b: Rect | null): Rect | null {
  if (!a || !b) return a ?? b;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    w: Math.max(a.x + a.w, b.x + b.w) - x,
    h: Math.max(a.y + a.h, b.y + b.h) - y,
  };
}
