import { AlertTriangle } from 'lucide-react';
import { CloseButton } from '../../ui/CloseButton.tsx';

/** The panel's dismissible error banner. */
export function ErrorBanner({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <div
      role="alert"
      data-testid="admin-error"
      className="mb-6 flex items-start gap-3 rounded-xl border border-danger/30 bg-danger/10 px-4 py-3 text-sm text-danger-text"
    >
      <AlertTriangle className="mt-0.5 size-4 shrink-0" />
      <p className="flex-1">{message}</p>
      <CloseButton
        label="Dismiss error"
        onClick={onDismiss}
        size="sm"
        className="-m-1 text-danger-text/80 hover:bg-danger/15 hover:text-danger-text"
      />
    </div>
  );
}
