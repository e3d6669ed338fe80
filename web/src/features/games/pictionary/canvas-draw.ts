import { PICTIONARY_CANVAS } from '@guildhall/common';

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
