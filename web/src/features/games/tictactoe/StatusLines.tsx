import { cn } from '../../../ui/cn.ts';
import type { GameView, Tone } from './game-view.ts';

const TONES: Record<Tone, string> = {
  neutral: 'text-text',
  brand: 'text-brand-text',
  success: 'text-success-text',
  danger: 'text-danger-text',
  warning: 'text-warning-text',
};

/** The status lines: the turn, the wait or the result, and a short explanation. */
export function StatusLines({ view }: { view: GameView }) {
  return (
    <div className="text-center" aria-live="polite">
      <p data-testid="status-headline" className={cn('text-xl font-bold sm:text-2xl', TONES[view.tone])}>
        {view.headline}
      </p>
      <p data-testid="status-detail" className="mt-1 text-sm text-muted">
        {view.detail}
      </p>
    </div>
  );
}
