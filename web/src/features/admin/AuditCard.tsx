import { type AuditEntry, isAccessLevel, LEVEL_LABELS } from '@guildhall/common';
import { History } from 'lucide-react';
import { Card, CardTitle } from '../../ui/Card.tsx';

const VERBS: Record<AuditEntry['action'], string> = {
  'user.create': 'added',
  'user.update': 'updated',
  'user.delete': 'removed',
  'user.sessions_revoke': 'signed out',
  'osint.search': 'ran an OSINT search:',
  'storage.quota': 'set the storage quota of',
  'osint.report.accepted': 'accepted a wrong-result report on OSINT site',
  'osint.report.dismissed': 'dismissed the wrong-result reports on OSINT site',
  'user.role_sync': 'changed, following Discord roles,',
  'role_sync.settings': 'changed the',
  'role_sync.held': 'decided on the',
};

const FIELD_LABELS: Record<string, string> = {
  username: 'Username',
  access_level: 'Level',
  cause: 'Why',
  pinned: 'Pinned',
  is_approved: 'Approved',
  email: 'Email',
  global_name: 'Display name',
  sessions: 'Sessions',
  type: 'Type',
  query: 'Query',
  quota: 'Quota',
};

function show(value: AuditEntry['changes'][number]['before']): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (isAccessLevel(value)) return LEVEL_LABELS[value];
  return String(value);
}

/** The most recent admin changes: who, what, before → after, when. */
export function AuditCard({ entries }: { entries: AuditEntry[] }) {
  return (
    <Card data-testid="audit-trail">
      <CardTitle icon={<History className="size-4" />}>Recent Changes</CardTitle>
      {entries.length === 0 ? (
        <p className="text-sm text-muted">No admin changes recorded yet.</p>
      ) : (
        <ol className="space-y-3">
          {entries.map((e) => (
            <li key={e.id} className="rounded-xl border border-border/60 bg-bg/40 px-3 py-2.5 text-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                <p className="min-w-0">
                  <span className="font-medium">{e.actor_name}</span>{' '}
                  <span className="text-muted">{VERBS[e.action]}</span>{' '}
                  <span className="font-medium">{e.target_name}</span>
                </p>
                <time dateTime={e.at} className="text-xs text-muted">
                  {new Date(e.at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
                </time>
              </div>
              {e.changes.length > 0 && (
                <ul className="mt-1.5 flex flex-wrap gap-1.5">
                  {e.changes.map((c) => (
                    <li key={c.field} className="rounded-md bg-surface-2 px-2 py-0.5 text-xs text-muted">
                      {FIELD_LABELS[c.field] ?? c.field}: <ChangeValue action={e.action} change={c} />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

/** before → after for an update; just the value for an addition or a removal. */
function ChangeValue({
  action,
  change,
}: {
  action: AuditEntry['action'];
  change: AuditEntry['changes'][number];
}) {
  if (action === 'user.create' || action === 'osint.search' || action === 'storage.quota')
    return <span className="text-text">{show(change.after)}</span>;
  if (action === 'user.delete') return <span className="text-text/80">{show(change.before)}</span>;
  return (
    <>
      <span className="text-text/80">{show(change.before)}</span> →{' '}
      <span className="text-text">{show(change.after)}</span>
    </>
  );
}
