import { PICTIONARY_CANVAS, type PictionarySegment } from '@guildhall/common';

/** Paints segments on a 1000×600 canvas context (round caps so a batch boundary leaves no gap). */
export function paintSegments(ctx: CanvasRenderingContext2D, segments: readonly PictionarySegment[]): void {
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const s of segments) {
    ctx.strokeStyle = s.color;
    ctx.lineWidth = s.size;
    ctx.beginPath();
    ctx.moveTo(s.from.x, s.from.y);
    ctx.lineTo(s.to.x, s.to.y);
    ctx.stroke();
  }
}

export function paintBlank(ctx: CanvasRenderingContext2D): void {
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, PICTIONARY_CANVAS.width, PICTIONARY_CANVAS.height);
}

/** A pointer position on the scaled element → canvas coordinates in 1000×600 (clamped to the canvas). */
export function toCanvasPoint(
  clientX: number,
  clientY: number,
  rect: { left: number; top: number; width: number; height: number },
): { x: number; y: number } {
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    x: round(clamp(((clientX - rect.left) * PICTIONARY_CANVAS.width) / rect.width, PICTIONARY_CANVAS.width)),
    y: round(
      clamp(((clientY - rect.top) * PICTIONARY_CANVAS.height) / rect.height, PICTIONARY_CANVAS.height),
    ),
  };
}
