import {
  EQ_BANDS,
  type EqSettings,
  FLAT_EQ,
  MUSIC_EFFECT_LABELS,
  MUSIC_EFFECTS,
  MUSIC_EQ_DEBOUNCE_MS,
  MUSIC_EQ_MAX_DB,
  MUSIC_EQ_MIN_DB,
  type MusicEffect,
  type PlaybackStatus,
} from '@guildhall/common';
import { SlidersHorizontal } from 'lucide-react';
import { type CSSProperties, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { cn } from '../../ui/cn.ts';
import { createDebouncer } from './debounce.ts';
import { rangeClass } from './range.ts';

const SPAN = MUSIC_EQ_MAX_DB - MUSIC_EQ_MIN_DB;
const dbText = (v: number) => `${v > 0 ? '+' : ''}${v} dB`;

/**
 * Audio Effects: five toggles and the five-band equalizer (−12…12 dB, whole numbers), sent 300 ms after
 * the last change. Disabled when nothing plays (portal-tools §5).
 */
export function EffectsPanel({
  status,
  disabled,
  onEffects,
  onEqualizer,
}: {
  status: PlaybackStatus | null;
  disabled: boolean;
  onEffects: (effects: MusicEffect[]) => void;
  onEqualizer: (eq: EqSettings) => void;
}) {
  const serverEq = status?.eqSettings ?? FLAT_EQ;
  const [draft, setDraft] = useState<EqSettings | null>(null);
  const send = useRef(onEqualizer);
  send.current = onEqualizer;
  // The draft lives only while a change waits for its debounce; once sent, the status shows it (optimistically
  // at first, then as the server confirms it, or the server's own values if it failed).
  const debouncer = useMemo(
    () =>
      createDebouncer<EqSettings>(MUSIC_EQ_DEBOUNCE_MS, (eq) => {
        send.current(eq);
        setDraft(null);
      }),
    [],
  );
  useEffect(() => () => debouncer.cancel(), [debouncer]);
  const eq = draft ?? serverEq;
  const change = (next: EqSettings) => {
    setDraft(next);
    debouncer.push(next);
  };

  const active = new Set(status?.activeEffects ?? []);
  return (
    <Card className="p-4 sm:p-5" data-testid="effects-panel">
      <CardTitle icon={<SlidersHorizontal className="size-4" />}>Audio Effects</CardTitle>
      <div className="grid grid-cols-2 gap-2">
        {MUSIC_EFFECTS.map((effect) => {
          const isOn = active.has(effect);
          return (
            <button
              key={effect}
              type="button"
              aria-pressed={isOn}
              data-testid={`effect-${effect}`}
              disabled={disabled}
              onClick={() => {
                const next = new Set(active);
                if (isOn) next.delete(effect);
                else next.add(effect);
                onEffects(MUSIC_EFFECTS.filter((e) => next.has(e)));
              }}
              className={cn(
                'h-9 rounded-lg border px-2 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-50',
                isOn
                  ? 'border-brand/60 bg-brand/20 text-brand-text'
                  : 'border-border bg-surface-2 text-muted hover:text-text',
                effect === '8d' && 'col-span-2',
              )}
            >
              {MUSIC_EFFECT_LABELS[effect]}
            </button>
          );
        })}
      </div>
      <div className="mt-5 mb-2 flex items-center justify-between">
        <h3 className="text-xs font-medium uppercase tracking-wide text-muted">Equalizer</h3>
        <Button
          size="sm"
          variant="ghost"
          disabled={disabled || EQ_BANDS.every((b) => eq[b.key] === 0)}
          onClick={() => change(FLAT_EQ)}
        >
          Reset
        </Button>
      </div>
      <div className="space-y-2.5">
        {EQ_BANDS.map((band) => (
          <label key={band.key} className="block">
            <span className="flex items-baseline justify-between text-sm">
              <span>
                {band.label}{' '}
                <span className="text-xs text-muted">
                  {hz(band.fromHz)}–{hz(band.toHz)}
                </span>
              </span>
              <span className="text-xs tabular-nums text-muted" data-testid={`eq-value-${band.key}`}>
                {dbText(eq[band.key])}
              </span>
            </span>
            <input
              type="range"
              data-testid={`eq-${band.key}`}
              aria-valuetext={dbText(eq[band.key])}
              min={MUSIC_EQ_MIN_DB}
              max={MUSIC_EQ_MAX_DB}
              step={1}
              value={eq[band.key]}
              disabled={disabled}
              style={bipolarFill(eq[band.key])}
              onChange={(e) => change({ ...eq, [band.key]: Math.round(Number(e.target.value)) })}
              className={rangeClass()}
            />
          </label>
        ))}
      </div>
    </Card>
  );
}

/** The equalizer's bar fills from its 0 dB middle to the value (left for a cut, right for a boost). */
function bipolarFill(db: number): CSSProperties {
  const pct = ((db - MUSIC_EQ_MIN_DB) / SPAN) * 100;
  return { '--lo': `${Math.min(50, pct)}%`, '--hi': `${Math.max(50, pct)}%` } as CSSProperties;
}

function hz(value: number): string {
  return value >= 1000 ? `${value / 1000}K` : `${value}`;
}
