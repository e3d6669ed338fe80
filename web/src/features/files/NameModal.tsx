import { nameProblem } from '@guildhall/common';
import { type FormEvent, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { inputClass, Modal } from '../../ui/Modal.tsx';

/**
 * One-field dialogs: Create New Folder, Rename and Categorize. The form submits on Enter; `validate`
 * returns the message to show, and a failed `onSubmit` shows the server's reason.
 */
export function NameModal({
  title,
  label,
  initial = '',
  placeholder,
  submitLabel,
  suggestions,
  validate,
  onSubmit,
  onClose,
}: {
  title: string;
  label: string;
  initial?: string;
  placeholder?: string;
  submitLabel: string;
  suggestions?: string[];
  validate: (value: string) => string | null;
  onSubmit: (value: string) => Promise<void>;
  onClose: () => void;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const listId = suggestions ? `${title.replace(/\W/g, '')}-suggestions` : undefined;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem = validate(value.trim());
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(value.trim());
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <label className="block space-y-1.5">
          <span className="text-sm text-muted">{label}</span>
          <input
            autoFocus
            className={inputClass}
            value={value}
            placeholder={placeholder}
            list={listId}
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
            aria-invalid={!!error}
          />
          {suggestions && (
            <datalist id={listId}>
              {suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          )}
        </label>
        {error && (
          <p role="alert" className="text-sm text-danger-text">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={isBusy}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Client-side check of an item name; the server checks the same rules. */
export function itemNameProblem(value: string, emptyMessage: string): string | null {
  if (!value) return emptyMessage;
  return nameProblem(value);
}
