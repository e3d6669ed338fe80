import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import { CloseButton } from '../../ui/CloseButton.tsx';
import { cn } from '../../ui/cn.ts';
import type { Feedback } from './useFeedback.ts';

/**
 * The panel's banner: errors (5 s) and successes (3 s), dismissible. It floats over the top of the page
 * instead of pushing the content down, so a message never moves the row the user is about to click.
 */
export function Banner({ feedback, onDismiss }: { feedback: Feedback | null; onDismiss: () => void }) {
  // The live regions stay mounted so screen readers announce each new message.
  const isError = feedback?.tone === 'error';
  return (
    <div
      className="pointer-events-none fixed inset-x-0 top-20 z-40 mx-auto w-full max-w-xl px-4"
      aria-live={isError ? 'assertive' : 'polite'}
    >
      {feedback && (
        <div
          key={feedback.key}
          role={isError ? 'alert' : 'status'}
          data-testid={isError ? 'music-error' : 'music-success'}
          className={cn(
            'pointer-events-auto flex items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-2xl backdrop-blur',
            // The theme's surface under the theme's tinted text: AA contrast in light and dark alike.
            isError
              ? 'border-danger/60 bg-surface text-danger-text'
              : 'border-success/60 bg-surface text-success-text',
          )}
        >
          {isError ? (
            <AlertTriangle className="mt-0.5 size-4 shrink-0" />
          ) : (
            <CheckCircle2 className="mt-0.5 size-4 shrink-0" />
          )}
          <p className="min-w-0 flex-1 break-words">
            <span className="font-medium">{feedback.text}</span>
            {feedback.detail && <span data-testid="music-error-detail">: {feedback.detail}</span>}
          </p>
          <CloseButton
            label="Dismiss message"
            onClick={onDismiss}
            size="sm"
            className={cn('-m-1', isError ? 'text-danger-text/80 hover:bg-danger/15' : 'hover:bg-success/15')}
          />
        </div>
      )}
    </div>
  );
}
