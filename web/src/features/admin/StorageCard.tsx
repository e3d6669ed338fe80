import { type AdminStorageEntry, formatFileSize } from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HardDrive } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { fetchStorage, setStorageQuota } from './api.ts';
import { TextInput } from './fields.tsx';

const STORAGE_KEY = ['admin', 'storage'] as const;
const MB = 1024 * 1024;

/** Storage per member: what each uses, their quota, and a control to set or reset it (issue 15). */
export function StorageCard({ disabled }: { disabled: boolean }) {
  const storage = useQuery({ queryKey: STORAGE_KEY, queryFn: fetchStorage });
  const defaultQuota = storage.data?.defaultQuotaBytes ?? null;
  return (
    <Card className="mb-6" data-testid="storage-quotas">
      <CardTitle icon={<HardDrive className="size-4" />}>Storage</CardTitle>
      <p className="mb-3 text-sm text-muted">
        Default quota: {defaultQuota ? formatFileSize(defaultQuota) : 'none'} (STORAGE_QUOTA_BYTES)
      </p>
      {storage.isError ? (
        <p className="text-sm text-danger">Could not load storage use.</p>
      ) : (
        <ul className="divide-y divide-border/60">
          {(storage.data?.data ?? []).map((entry) => (
            <StorageRow key={entry.userId} entry={entry} disabled={disabled} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function StorageRow({ entry, disabled }: { entry: AdminStorageEntry; disabled: boolean }) {
  const queryClient = useQueryClient();
  const [megabytes, setMegabytes] = useState('');
  const save = useMutation({
    mutationFn: (quotaBytes: number | null) => setStorageQuota(entry.userId, quotaBytes),
    onSuccess: async () => {
      setMegabytes('');
      await queryClient.invalidateQueries({ queryKey: STORAGE_KEY });
      toast.success(`Quota of ${entry.username} saved`);
    },
    onError: (e) => toast.error(e instanceof Error ? e.message : 'Could not save the quota'),
  });
  const value = Number(megabytes);
  const valid = megabytes.trim() !== '' && Number.isFinite(value) && value > 0;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2.5 text-sm">
      <div className="min-w-0">
        <p className="truncate font-medium">{entry.username}</p>
        <p className="text-xs text-muted">
          {formatFileSize(entry.usedBytes)} used
          {entry.quotaBytes ? ` of ${formatFileSize(entry.quotaBytes)}` : ' · no quota'}
          {entry.customQuota ? ' (own quota)' : ''}
        </p>
      </div>
      <form
        className="flex items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) save.mutate(Math.round(value * MB));
        }}
      >
        {/* inputClass is w-full (cn does not merge classes): the wrapper sets the width. */}
        <div className="w-28">
          <TextInput
            aria-label={`Quota of ${entry.username} in MB`}
            inputMode="decimal"
            placeholder="Quota, MB"
            className="h-8"
            value={megabytes}
            onChange={(e) => setMegabytes(e.target.value)}
            disabled={disabled || save.isPending}
          />
        </div>
        <Button type="submit" size="sm" variant="secondary" disabled={disabled || !valid || save.isPending}>
          Set
        </Button>
        {entry.customQuota && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => save.mutate(null)}
            disabled={disabled || save.isPending}
          >
            Default
          </Button>
        )}
      </form>
    </li>
  );
}
