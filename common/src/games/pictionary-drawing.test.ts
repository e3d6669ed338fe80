import { describe, expect, it } from 'vitest';
import type { PictionaryDrawItem, PictionarySegment } from './pictionary-api.ts';
import {
  compactStrokeIds,
  createRaster,
  type DrawLogEntry,
  expandStrokeIds,
  paintItems,
  type Raster,
  resolveDrawing,
  undoTarget,
} from './pictionary-drawing.ts';

const line = (
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  color = '#000000',
  size = 4,
): PictionarySegment => ({
  type: 'line',
  from: { x: x1, y: y1 },
  to: { x: x2, y: y2 },
  color,
  size,
  timestamp: 1,
});
const stroke = (strokeId: number, ...items: PictionaryDrawItem[]): DrawLogEntry => ({
  kind: 'stroke',
  strokeId,
  items,
});
const rgba = (r: Raster, x: number, y: number) => [
  ...r.data.slice((y * r.width + x) * 4, (y * r.width + x) * 4 + 4),
];

describe('the drawing log (undo, clear)', () => {
  it('an undo removes the whole last stroke, every batch of it; a second undo walks back one more', () => {
    const log: DrawLogEntry[] = [
      stroke(1, line(0, 0, 10, 10)),
      stroke(2, line(20, 20, 30, 30)),
      stroke(2, line(30, 30, 40, 40)),
    ];
    expect(undoTarget(log)).toBe(2);
    log.push({ kind: 'undo', strokeId: 2 });
    expect(resolveDrawing(log).map((i) => i.strokeId)).toEqual([1]);
    expect(undoTarget(log)).toBe(1);
    log.push({ kind: 'undo', strokeId: 1 });
    expect(resolveDrawing(log)).toEqual([]);
    expect(undoTarget(log)).toBeNull();
  });

  it('a clear is not undone: undo walks back only what was drawn after it', () => {
    const log: DrawLogEntry[] = [stroke(1, line(0, 0, 1, 1)), { kind: 'clear' }, stroke(2, line(0, 0, 1, 1))];
    expect(undoTarget(log)).toBe(2);
    expect(undoTarget([...log, { kind: 'undo', strokeId: 2 }])).toBeNull();
  });

  it('a stroke id reused after its stroke was undone (a reloaded screen numbers afresh) draws again', () => {
    const log: DrawLogEntry[] = [
      stroke(1, line(0, 0, 1, 1)),
      { kind: 'undo', strokeId: 1 },
      stroke(1, line(5, 5, 6, 6)),
    ];
    expect(resolveDrawing(log)).toHaveLength(1);
    expect(undoTarget(log)).toBe(1);
  });
});

it('a drawing on the wire names each stroke once, and expands back to every item', () => {
  const items = resolveDrawing([stroke(1, line(0, 0, 1, 1), line(1, 1, 2, 2)), stroke(2, line(3, 3, 4, 4))]);
  const wire = compactStrokeIds(items);
  expect(wire.map((i) => i.strokeId)).toEqual([1, undefined, 2]);
  expect(expandStrokeIds(wire)).toEqual(items);
});

describe('the rasterizer and the fill rule', () => {
  it('a fill inside a closed outline colours the inside only, exactly up to the outline', () => {
    const r = createRaster();
    // A closed square outline from (100,100) to (200,200), then a fill inside it.
    paintItems(r, [
      line(100, 100, 200, 100),
      line(200, 100, 200, 200),
      line(200, 200, 100, 200),
      line(100, 200, 100, 100),
      { type: 'fill', x: 150, y: 150, color: '#ff0000', timestamp: 1 },
    ]);
    expect(rgba(r, 150, 150)).toEqual([255, 0, 0, 255]);
    expect(rgba(r, 104, 150)).toEqual([255, 0, 0, 255]);
    expect(rgba(r, 100, 150)).toEqual([0, 0, 0, 255]); // the outline keeps its colour
    expect(rgba(r, 50, 50)).toEqual([255, 255, 255, 255]); // outside untouched
    expect(rgba(r, 250, 150)).toEqual([255, 255, 255, 255]);
  });

  it('a fill on a blank canvas covers all of it; filling with the colour already there changes nothing', () => {
    const r = createRaster();
    const box = paintItems(r, [{ type: 'fill', x: 999.9, y: 599.9, color: '#00ff00', timestamp: 1 }]);
    expect(box).toEqual({ x: 0, y: 0, w: 1000, h: 600 });
    expect(rgba(r, 0, 0)).toEqual([0, 255, 0, 255]);
    expect(paintItems(r, [{ type: 'fill', x: 5, y: 5, color: '#00ff00', timestamp: 2 }])).toBeNull();
  });

  it('the same items give the same pixels, and a fill leaks through a gap (4-connected rule, no tolerance)', () => {
    const items: PictionaryDrawItem[] = [
      line(300, 300, 400, 300, '#0000ff', 1),
      line(300.3, 310.7, 400.2, 310.1, '#0000ff', 15),
      { type: 'fill', x: 350, y: 301.5, color: '#ffa500', timestamp: 1 },
    ];
    const a = createRaster();
    const b = createRaster();
    paintItems(a, items);
    paintItems(b, items);
    expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(true);
    // The strip between the lines is open at both ends, so the fill reaches the whole background.
    expect(rgba(a, 10, 10)).toEqual([255, 165, 0, 255]);
  });

  it('a one-unit dot always covers a pixel, even on a pixel corner', () => {
    const r = createRaster();
    paintItems(r, [line(100, 100, 100, 100, '#000000', 1)]);
    expect(rgba(r, 99, 99)).toEqual([0, 0, 0, 255]);
  });
});
