import {
  PICTIONARY_CANVAS,
  PICTIONARY_MAX_SEGMENTS_PER_BATCH,
  PICTIONARY_STROKE_FLUSH_MS,
  type PictionaryDrawBody,
  type PictionarySegment,
} from '@guildhall/common';
import { type RefObject, useEffect, useImperativeHandle, useRef } from 'react';
import { paintBlank, paintSegments, toCanvasPoint } from './canvas-draw.ts';

/** Canvas units between two points of a stroke (1000×600: invisible at any screen size). */
const MIN_STEP = 2;

const contextOf = (el: HTMLCanvasElement | null) => el?.getContext('2d') ?? null;

/** What the screen does to the canvas: strokes of a turn arrive, a whole drawing replaces it. */
export type CanvasHandle = {
  draw(turn: number, segments: readonly PictionarySegment[]): void;
  replace(turn: number, segments: readonly PictionarySegment[]): void;
};

type Props = {
  handle: RefObject<CanvasHandle | null>;
  turnNumber: number;
  /** The turn's drawing known when (re)mounting or when the turn changes. */
  initial: () => readonly PictionarySegment[];
  canDraw: boolean;
  color: string;
  size: number;
  onSend: (strokeData: PictionaryDrawBody['strokeData']) => void;
};

/**
 * The 1000×600 canvas, scaled by CSS to the width it gets (a phone included) while every coordinate stays
 * in 1000×600. The drawer draws with any pointer (mouse, touch, pen); segments go out every 50 ms while
 * the pointer is down and at once when it is released or leaves the canvas.
 */
export function DrawingCanvas({ handle, turnNumber, initial, canDraw, color, size, onSend }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);
  const turn = useRef(turnNumber);
  const last = useRef<{ x: number; y: number } | null>(null);
  const pending = useRef<PictionarySegment[]>([]);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const send = useRef(onSend);
  send.current = onSend;

  useImperativeHandle(
    handle,
    () => ({
      draw(t, segments) {
        const c = contextOf(ref.current);
        if (c && t === turn.current) paintSegments(c, segments);
      },
      replace(t, segments) {
        const c = contextOf(ref.current);
        if (!c || t !== turn.current) return;
        paintBlank(c);
        paintSegments(c, segments);
      },
    }),
    [],
  );

  // A new turn starts blank (with whatever of it is already known).
  useEffect(() => {
    turn.current = turnNumber;
    const c = contextOf(ref.current);
    if (!c) return;
    paintBlank(c);
    paintSegments(c, initial());
  }, [turnNumber, initial]);

  const flush = () => {
    const segments = pending.current.splice(0, PICTIONARY_MAX_SEGMENTS_PER_BATCH);
    if (segments.length > 0) send.current({ type: 'stroke_batch', segments, timestamp: Date.now() });
    if (pending.current.length > 0) flush();
  };
  const stop = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
    last.current = null;
    flush();
  };
  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
    },
    [],
  );

  const point = (e: React.PointerEvent<HTMLCanvasElement>) =>
    toCanvasPoint(e.clientX, e.clientY, e.currentTarget.getBoundingClientRect());

  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!canDraw) return;
    e.preventDefault();
    last.current = point(e);
    // A tap leaves a dot: a segment from the point to itself.
    addSegment(last.current);
    timer.current ??= setInterval(flush, PICTIONARY_STROKE_FLUSH_MS);
  };
  // A stroke that left the canvas with the button held goes on where the pointer comes back (issue 29).
  const onPointerEnter = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!canDraw || (e.buttons & 1) === 0) return;
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
    const segment: PictionarySegment = { type: 'line', from, to, color, size, timestamp: Date.now() };
    last.current = to;
    const c = contextOf(ref.current);
    if (c) paintSegments(c, [segment]);
    pending.current.push(segment);
  };

  return (
    <canvas
      ref={ref}
      data-testid="pictionary-canvas"
      aria-label={canDraw ? 'Drawing canvas: draw here' : 'The drawing'}
      width={PICTIONARY_CANVAS.width}
      height={PICTIONARY_CANVAS.height}
      className={`block aspect-[5/3] w-full rounded-xl border border-border bg-white ${canDraw ? 'cursor-crosshair touch-none' : ''}`}
      onPointerDown={onPointerDown}
      onPointerEnter={onPointerEnter}
      onPointerMove={onPointerMove}
      onPointerUp={stop}
      onPointerCancel={stop}
      onPointerLeave={stop}
    />
  );
}
