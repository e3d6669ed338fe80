import {
  clearRaster,
  createRaster,
  lastStroke,
  PICTIONARY_CANVAS,
  PICTIONARY_ERASER_COLOR,
  PICTIONARY_MAX_CLIENT_STROKE_ID,
  PICTIONARY_MAX_SEGMENTS_PER_BATCH,
  PICTIONARY_STROKE_FLUSH_MS,
  type PictionaryDrawBody,
  type PictionaryDrawItem,
  type PictionarySegment,
  paintItem,
  paintItems,
  type Rect,
} from '@guildhall/common';
import { type RefObject, useEffect, useImperativeHandle, useRef } from 'react';
import { toCanvasPoint } from './canvas-draw.ts';

/** On <body> while the drawer's button is down (index.css: no text selection meanwhile). */
const DRAWING_CLASS = 'pictionary-drawing';
/** Canvas units between two points of a stroke (1000×600: invisible at any screen size). */
const MIN_STEP = 2;

export type DrawingTool = 'brush' | 'eraser' | 'fill';

/** What the screen does to the canvas: items of a turn arrive, a whole drawing replaces it, undo. */
export type CanvasHandle = {
  draw(turn: number, items: readonly PictionaryDrawItem[]): void;
  replace(turn: number, items: readonly PictionaryDrawItem[]): void;
  /** The drawer's undo: removes their last stroke here; false when there is nothing to undo. */
  undoLast(): boolean;
};

type Props = {
  handle: RefObject<CanvasHandle | null>;
  turnNumber: number;
  /** The turn's drawing known when (re)mounting or when the turn changes. */
  initial: () => readonly PictionaryDrawItem[];
  canDraw: boolean;
  tool: DrawingTool;
  color: string;
  size: number;
  onSend: (strokeData: PictionaryDrawBody['strokeData']) => void;
};

/**
 * The 1000×600 canvas, scaled by CSS to the width it gets (a phone included) while every coordinate stays
 * in 1000×600. Everything is painted by the shared rasterizer (common/src/games/pictionary-drawing.ts) into
 * one pixel buffer, so every screen shows the same pixels. The drawer draws with any pointer (mouse, touch,
 * pen); segments go out every 50 ms while the pointer is down and at once when it is released or leaves the
 * canvas. A stroke is everything from press to release: leaving and coming back with the button held goes
 * on with the same stroke, so one undo takes all of it.
 */
export function DrawingCanvas({ handle, turnNumber, initial, canDraw, tool, color, size, onSend }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);
  const turn = useRef(turnNumber);
  const raster = useRef(createRaster());
  const image = useRef<ImageData | null>(null);
  /** What is on the canvas, in order, with the stroke of each item (for undo). */
  const items = useRef<PictionaryDrawItem[]>([]);
  const nextId = useRef(1);
  /** The stroke being drawn (kept while the pointer is outside the canvas with the button held). */
  const strokeId = useRef<number | null>(null);
  const last = useRef<{ x: number; y: number } | null>(null);
  const pending = useRef<PictionarySegment[]>([]);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const send = useRef(onSend);
  send.current = onSend;

  const blit = (rect: Rect | null) => {
    const c = ref.current?.getContext('2d');
    if (!c || !rect) return;
    // The ImageData shares the raster's buffer: only the changed pixels are copied to the screen.
    image.current ??= new ImageData(
      raster.current.data as Uint8ClampedArray<ArrayBuffer>,
      PICTIONARY_CANVAS.width,
      PICTIONARY_CANVAS.height,
    );
    c.putImageData(image.current, 0, 0, rect.x, rect.y, rect.w, rect.h);
  };
  const whole: Rect = { x: 0, y: 0, w: PICTIONARY_CANVAS.width, h: PICTIONARY_CANVAS.height };
  const repaint = (next: readonly PictionaryDrawItem[]) => {
    items.current = [...next];
    for (const item of next) {
      const id = item.strokeId ?? 0;
      if (id < PICTIONARY_MAX_CLIENT_STROKE_ID && id >= nextId.current) nextId.current = id + 1;
    }
    clearRaster(raster.current);
    paintItems(raster.current, next);
    blit(whole);
  };
  const add = (item: PictionaryDrawItem) => {
    items.current.push(item);
    blit(paintItem(raster.current, item));
  };

  const undoLast = () => {
    const target = lastStroke(items.current);
    if (target === null) return false;
    repaint(items.current.filter((i) => i.strokeId !== target));
    return true;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the helpers it calls read and write refs only
  useImperativeHandle(
    handle,
    () => ({
      draw(t, next) {
        if (t !== turn.current) return;
        for (const item of next) add(item);
      },
      replace(t, next) {
        if (t === turn.current) repaint(next);
      },
      undoLast,
    }),
    [],
  );

  // A new turn starts blank (with whatever of it is already known).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the helpers it calls read and write refs only
  useEffect(() => {
    turn.current = turnNumber;
    nextId.current = 1;
    strokeId.current = null;
    repaint(initial());
  }, [turnNumber, initial]);

  // Ctrl+Z / Cmd+Z: the drawer's undo, wherever the focus is but in a text field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the helpers it calls read and write refs only
  useEffect(() => {
    if (!canDraw) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'z') return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('input[type=text], textarea, [contenteditable=true]')) return;
      e.preventDefault();
      if (undoLast()) send.current({ type: 'undo', timestamp: Date.now() });
    };
    // A press released outside the canvas ends the stroke: coming back later starts a new one. A touch the
    // browser takes over (pointercancel: a scroll, a system gesture) ends it the same way, and gives the page
    // its text selection back.
    const onUp = () => {
      strokeId.current = null;
      document.body.classList.remove(DRAWING_CLASS);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
      document.body.classList.remove(DRAWING_CLASS);
    };
  }, [canDraw]);

  const flush = () => {
    // One batch belongs to one stroke.
    const id = pending.current[0]?.strokeId;
    let n = 0;
    while (
      n < pending.current.length &&
      n < PICTIONARY_MAX_SEGMENTS_PER_BATCH &&
      pending.current[n]!.strokeId === id
    )
      n++;
    const segments = pending.current.splice(0, n);
    if (segments.length > 0)
      send.current({
        type: 'stroke_batch',
        segments: segments.map(({ strokeId: _, ...s }) => s),
        timestamp: Date.now(),
        ...(id === undefined ? {} : { strokeId: id }),
      });
    if (pending.current.length > 0) flush();
  };
  const pause = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
    last.current = null;
    flush();
  };
  const stop = () => {
    pause();
    strokeId.current = null;
  };
  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
    },
    [],
  );

  const point = (e: React.PointerEvent<HTMLCanvasElement>) =>
    toCanvasPoint(e.clientX, e.clientY, e.currentTarget.getBoundingClientRect());
  const newStroke = () => {
    const id = nextId.current;
    nextId.current += 1;
    return id;
  };

  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!canDraw) return;
    e.preventDefault();
    if (tool === 'fill') {
      const p = point(e);
      const id = newStroke();
      const fill = { type: 'fill' as const, x: p.x, y: p.y, color, timestamp: Date.now() };
      add({ ...fill, strokeId: id });
      send.current({ ...fill, strokeId: id });
      return;
    }
    strokeId.current = newStroke();
    // A stroke that leaves the canvas with the button held must not select (and scroll) the page.
    document.body.classList.add(DRAWING_CLASS);
    last.current = point(e);
    // A tap leaves a dot: a segment from the point to itself.
    addSegment(last.current);
    timer.current ??= setInterval(flush, PICTIONARY_STROKE_FLUSH_MS);
  };
  // A stroke that left the canvas with the button held goes on where the pointer comes back (issue 29).
  const onPointerEnter = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!canDraw || tool === 'fill' || (e.buttons & 1) === 0) return;
    strokeId.current ??= newStroke();
    last.current = point(e);
    timer.current ??= setInterval(flush, PICTIONARY_STROKE_FLUSH_MS);
  };
  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!canDraw || !last.current) return;
    const events = e.nativeEvent.getCoalescedEvents?.() ?? [];
    const rect = e.currentTarget.getBoundingClientRect();
    for (const ev of events.length > 0 ? events : [e.nativeEvent])
      addSegment(toCanvasPoint(ev.clientX, ev.clientY, rect));
  };
  const addSegment = (to: { x: number; y: number }) => {
    const from = last.current ?? to;
    // Points closer than MIN_STEP add nothing visible, only segments (the turn's budget is finite).
    if (from !== to && Math.hypot(to.x - from.x, to.y - from.y) < MIN_STEP) return;
    const segment: PictionarySegment = {
      type: 'line',
      from,
      to,
      color: tool === 'eraser' ? PICTIONARY_ERASER_COLOR : color,
      size,
      timestamp: Date.now(),
      ...(strokeId.current === null ? {} : { strokeId: strokeId.current }),
    };
    last.current = to;
    add(segment);
    pending.current.push(segment);
  };

  return (
    <canvas
      ref={ref}
      data-testid="pictionary-canvas"
      data-tool={canDraw ? tool : undefined}
      aria-label={
        canDraw ? `Drawing canvas: ${tool === 'fill' ? 'tap to fill' : 'draw here'}` : 'The drawing'
      }
      width={PICTIONARY_CANVAS.width}
      height={PICTIONARY_CANVAS.height}
      className={`block aspect-[5/3] w-full rounded-xl border border-border bg-white ${canDraw ? `${tool === 'fill' ? 'cursor-cell' : 'cursor-crosshair'} touch-none` : ''}`}
      onPointerDown={onPointerDown}
      onPointerEnter={onPointerEnter}
      onPointerMove={onPointerMove}
      onPointerUp={stop}
      onPointerCancel={stop}
      onPointerLeave={pause}
    />
  );
}
