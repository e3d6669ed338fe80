import { type AccessLevel, ADMIN_TEXTS, type ClientUser, toServerUserBody } from '@guildhall/common';
import { ChevronDown, UserPlus } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { addUser } from './api.ts';
import { LevelSelect, TextInput } from './fields.tsx';
import { checkNewUser } from './rules.ts';

type Props = {
  approved: ClientUser[];
  disabled: boolean;
  perform: (op: () => Promise<unknown>, failText: (m: string) => string) => Promise<boolean>;
};

const EMPTY = { id: '', username: '', email: '', accessLevel: 'user' as AccessLevel };

/** Add New User: toggles open and closed; User ID and Username required; level defaults to User. */
export function AddUserForm({ approved, disabled, perform }: Props) {
  const [isOpen, setIsOpen] = useState(false);
  const [form, setForm] = useState(EMPTY);
  // The spec's check texts, shown inline under the form instead of a native alert().
  const [problem, setProblem] = useState<string | null>(null);
  const ids = useId();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = checkNewUser(approved, form);
    setProblem(problem);
    if (problem) return;
    const ok = await perform(() => addUser(toServerUserBody(form)), ADMIN_TEXTS.addFailed);
    if (ok) {
      toast.success(`Added ${form.username.trim()}`);
      setForm(EMPTY);
      setIsOpen(false);
    }
  }

  return (
    <section className="mb-6 rounded-2xl border border-border bg-surface/80">
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={`${ids}-form`}
        disabled={disabled}
        onClick={() => setIsOpen((v) => !v)}
        className="flex w-full cursor-pointer items-center gap-2 rounded-2xl px-5 py-4 text-left font-semibold transition-colors hover:bg-surface-2/60 disabled:cursor-not-allowed disabled:opacity-50 sm:px-6"
      >
        <UserPlus className="size-4 text-brand" />
        <span className="flex-1">Add New User</span>
        <ChevronDown className={cn('size-4 text-muted transition-transform', isOpen && 'rotate-180')} />
      </button>
      {isOpen && (
        <form
          id={`${ids}-form`}
          onSubmit={onSubmit}
          noValidate
          aria-label="Add New User"
          className="grid gap-4 border-t border-border px-5 pt-4 pb-5 sm:grid-cols-2 sm:px-6 lg:grid-cols-4"
        >
          <label className="space-y-1.5 text-sm">
            <span className="font-medium">
              User ID <span className="text-danger">*</span>
            </span>
            <TextInput
              value={form.id}
              onChange={(e) => setForm({ ...form, id: e.target.value })}
              placeholder="Discord user id"
              inputMode="numeric"
              required
              disabled={disabled}
            />
          </label>
          <label className="space-y-1.5 text-sm">
            <span className="font-medium">
              Username <span className="text-danger">*</span>
            </span>
            <TextInput
              value={form.username}
              onChange={(e) => setForm({ ...form, username: e.target.value })}
              placeholder="Username"
              required
              disabled={disabled}
            />
          </label>
          <label className="space-y-1.5 text-sm">
            <span className="font-medium">Email</span>
            <TextInput
              type="email"
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
              placeholder="Optional"
              disabled={disabled}
            />
          </label>
          <label className="space-y-1.5 text-sm">
            <span className="font-medium">Access Level</span>
            <LevelSelect
              value={form.accessLevel}
              onChange={(accessLevel) => setForm({ ...form, accessLevel })}
              disabled={disabled}
            />
          </label>
          {problem && (
            <p
              role="alert"
              data-testid="add-user-problem"
              className="rounded-lg border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger-text sm:col-span-2 lg:col-span-4"
            >
              {problem}
            </p>
          )}
          <div className="flex justify-end gap-2 sm:col-span-2 lg:col-span-4">
            <Button variant="ghost" onClick={() => setIsOpen(false)} disabled={disabled}>
              Cancel
            </Button>
            <Button type="submit" icon={<UserPlus className="size-4" />} disabled={disabled}>
              Add User
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
