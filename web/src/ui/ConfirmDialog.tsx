import { type ReactNode, useState } from 'react';
import { Button } from './Button.tsx';
import { Modal } from './Modal.tsx';

/**
 * The in-app replacement for `window.confirm`/`window.alert`: the question (or notice) in a dialog
 * that matches the app. Without `onConfirm` it is a notice with a single OK. A `danger` question
 * opens with focus on Cancel, so an Enter pressed out of habit never deletes (issue 31).
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel = 'OK',
  danger = false,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
  onConfirm?: () => Promise<void> | void;
  onClose: () => void;
}) {
  const [isBusy, setBusy] = useState(false);
  return (
    <Modal title={title} onClose={onClose}>
      <div className="space-y-5">
        <div className="text-sm text-muted" data-testid="confirm-message">
          {children}
        </div>
        <div className="flex justify-end gap-2">
          {onConfirm && (
            <Button variant="ghost" onClick={onClose} data-autofocus={danger ? true : undefined}>
              Cancel
            </Button>
          )}
          <Button
            variant={danger ? 'danger' : 'primary'}
            disabled={isBusy}
            data-autofocus={danger && onConfirm ? undefined : true}
            onClick={async () => {
              if (!onConfirm) return onClose();
              setBusy(true);
              try {
                await onConfirm();
              } finally {
                setBusy(false);
                onClose();
              }
            }}
          >
            {confirmLabel}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
