import {
  PICTIONARY_BRUSH,
  PICTIONARY_BRUSH_PRESETS,
  PICTIONARY_QUICK_COLORS,
  PICTIONARY_TEXTS as T,
} from '@guildhall/common';
import { Brush, Eraser, PaintBucket, Trash2, Undo2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../ui/Button.tsx';
import { Card } from '../../../ui/Card.tsx';
import { cn } from '../../../ui/cn.ts';
import type { DrawingTool } from './DrawingCanvas.tsx';

type Props = {
  tool: DrawingTool;
  color: string;
  size: number;
  onTool: (t: DrawingTool) => void;
  onColor: (c: string) => void;
  onSize: (s: number) => void;
  onUndo: () => void;
  onClear: () => void;
};

const TOOLS: { id: DrawingTool; label: string; icon: ReactNode }[] = [
  { id: 'brush', label: T.brush, icon: <Brush className="size-4" /> },
  { id: 'eraser', label: T.eraser, icon: <Eraser className="size-4" /> },
  { id: 'fill', label: T.fill, icon: <PaintBucket className="size-4" /> },
];

const pressable =
  'flex h-9 items-center justify-center gap-1.5 rounded-lg border px-2.5 text-sm font-medium transition-colors';
const pressed = (on: boolean) =>
  on
    ? 'border-brand bg-brand/15 text-brand-text'
    : 'cursor-pointer border-border bg-surface-2 text-text hover:border-muted/60 hover:bg-border/60';

/**
 * The drawer's tools (portal-tools §2 plus issue 29): brush, eraser and fill bucket, colour picker and the
 * 8 quick colours, four brush sizes and the slider, undo (also Ctrl/Cmd+Z) and Clear Canvas. Every control
 * is a button or an input with a name, reachable with Tab; the chosen tool and size are `aria-pressed`.
 */
export function DrawingTools(props: Props) {
  return (
    <Card className="flex flex-wrap items-center gap-x-4 gap-y-3 p-3 sm:p-3" data-testid="drawing-tools">
      <fieldset className="flex gap-1">
        <legend className="sr-only">Tool</legend>
        {TOOLS.map((t) => (
          <button
            key={t.id}
            type="button"
            aria-pressed={props.tool === t.id}
            onClick={() => props.onTool(t.id)}
            className={cn(pressable, pressed(props.tool === t.id))}
          >
            {t.icon}
            <span>{t.label}</span>
          </button>
        ))}
      </fieldset>
      <div className="flex flex-wrap items-center gap-1 sm:gap-1.5">
        <input
          type="color"
          aria-label="Colour"
          value={props.color}
          onChange={(e) => props.onColor(e.target.value)}
          className="h-9 w-11 cursor-pointer rounded border border-border bg-transparent"
        />
        {PICTIONARY_QUICK_COLORS.map((c) => (
          <button
            key={c}
            type="button"
            aria-label={`Colour ${c}`}
            aria-pressed={props.color === c}
            onClick={() => props.onColor(c)}
            className={cn(
              'size-6 rounded-full border-2 sm:size-7',
              props.color === c ? 'border-text ring-2 ring-brand' : 'border-border',
            )}
            style={{ backgroundColor: c }}
          />
        ))}
      </div>
      <div className="flex items-center gap-2">
        <fieldset className="flex gap-1">
          <legend className="sr-only">Brush sizes</legend>
          {PICTIONARY_BRUSH_PRESETS.map((n) => (
            <button
              key={n}
              type="button"
              aria-label={T.brushSize(n)}
              aria-pressed={props.size === n}
              onClick={() => props.onSize(n)}
              className={cn(pressable, 'w-9 px-0', pressed(props.size === n))}
            >
              {/* A dot as wide as the brush (scaled to the canvas's usual on-screen size). */}
              <span
                className="rounded-full bg-current"
                style={{ width: `${Math.max(3, n)}px`, height: `${Math.max(3, n)}px` }}
              />
            </button>
          ))}
        </fieldset>
        <input
          type="range"
          aria-label="Brush size"
          min={PICTIONARY_BRUSH.min}
          max={PICTIONARY_BRUSH.max}
          value={props.size}
          onChange={(e) => props.onSize(Number(e.target.value))}
          className="w-20 accent-[#5865f2]"
        />
        <span className="w-5 text-sm tabular-nums text-muted">{props.size}</span>
      </div>
      <div className="ml-auto flex gap-2">
        <Button
          variant="secondary"
          size="sm"
          icon={<Undo2 className="size-4" />}
          onClick={props.onUndo}
          aria-keyshortcuts="Control+Z Meta+Z"
          title="Undo (Ctrl+Z)"
        >
          {T.undo}
        </Button>
        <Button variant="secondary" size="sm" icon={<Trash2 className="size-4" />} onClick={props.onClear}>
          {T.clearCanvas}
        </Button>
      </div>
    </Card>
  );
}
