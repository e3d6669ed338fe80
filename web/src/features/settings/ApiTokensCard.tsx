import {
  API_TOKEN_EXPIRY_CHOICES_DAYS,
  API_TOKEN_NAME_MAX_CHARS,
  API_TOKEN_SCOPE_LABELS,
  API_TOKEN_SCOPES,
  API_TOKEN_TEXTS,
  type ApiToken,
  ApiTokenCreateResponse,
  type ApiTokenScope,
  ApiTokensListResponse,
  curlUploadExample,
  sharexConfig,
} from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, KeyRound, Trash } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { apiFetch } from '../../api/client.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { inputClass } from '../../ui/Modal.tsx';

const TOKENS_KEY = ['api-tokens'];

const fetchTokens = async () => ApiTokensListResponse.parse(await apiFetch('/api/tokens')).data;
/** The files page's date style (no seconds), so both pages read alike. */
const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'Never';

/** Offers a ShareX custom uploader file for this portal and token. */
function downloadSxcu(token: string): void {
  const blob = new Blob([JSON.stringify(sharexConfig(window.location.origin, token), null, 2)], {
    type: 'application/json',
  });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `guildhall-${window.location.host.replace(/[^A-Za-z0-9.-]/g, '_')}.sxcu`;
  a.click();
  URL.revokeObjectURL(url);
}

/** Personal API tokens (issue 45): create (shown once, with a ShareX file and a curl line), list, revoke. */
export function ApiTokensCard() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: TOKENS_KEY, queryFn: fetchTokens });
  const [created, setCreated] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: TOKENS_KEY });

  return (
    <Card className="mt-6" data-testid="api-tokens">
      <CardTitle icon={<KeyRound className="size-4" />}>API tokens</CardTitle>
      <p className="mb-4 text-sm text-muted">
        For ShareX, Flameshot and scripts: a token acts as you, only for the scopes you choose, until it
        expires or you revoke it. It never reaches the admin panel.
      </p>
      <CreateTokenForm
        onCreated={async (token) => {
          setCreated(token);
          await refresh();
        }}
      />
      {created && <NewToken token={created} onDismiss={() => setCreated(null)} />}
      <TokenList tokens={tokens.data} onChanged={refresh} />
    </Card>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (token: string) => Promise<void> }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['upload']);
  const [days, setDays] = useState<number>(90);
  const create = useMutation({
    mutationFn: async () =>
      ApiTokenCreateResponse.parse(
        await apiFetch('/api/tokens', {
          method: 'POST',
          body: { name: name.trim(), scopes, expiresInDays: days },
        }),
      ),
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    try {
      const res = await create.mutateAsync();
      setName('');
      await onCreated(res.token);
    } catch (err) {
      toast.error('Could not create the token', {
        description: err instanceof Error ? err.message : undefined,
      });
    }
  }

  return (
    <form onSubmit={submit} className="mb-4 space-y-3">
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
        <label className="block space-y-1.5">
          <span className="text-sm text-muted">Name</span>
          <input
            className={inputClass}
            value={name}
            maxLength={API_TOKEN_NAME_MAX_CHARS}
            onChange={(e) => setName(e.target.value)}
            placeholder="ShareX on my desktop"
            data-testid="token-name"
          />
        </label>
        <label className="block space-y-1.5">
          <span className="text-sm text-muted">Expires in</span>
          <select
            className={inputClass}
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
            data-testid="token-expiry"
          >
            {API_TOKEN_EXPIRY_CHOICES_DAYS.map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </select>
        </label>
      </div>
      {/* Scopes before the button, on screen and in tab order: what the token may do is chosen first. */}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <fieldset className="min-w-0">
          <legend className="mb-1.5 text-sm text-muted">Scopes</legend>
          <div className="flex flex-col gap-2 text-sm sm:flex-row sm:flex-wrap sm:gap-x-4">
            {API_TOKEN_SCOPES.map((scope) => (
              <label key={scope} className="inline-flex items-center gap-1.5">
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={(e) =>
                    setScopes((s) => (e.target.checked ? [...s, scope] : s.filter((x) => x !== scope)))
                  }
                  className="accent-[#5865f2]"
                />
                {API_TOKEN_SCOPE_LABELS[scope]}
              </label>
            ))}
          </div>
        </fieldset>
        <Button
          type="submit"
          className="shrink-0"
          disabled={!name.trim() || scopes.length === 0 || create.isPending}
        >
          Create token
        </Button>
      </div>
    </form>
  );
}

function NewToken({ token, onDismiss }: { token: string; onDismiss: () => void }) {
  const curl = curlUploadExample(window.location.origin, token);
  return (
    <div className="mb-4 space-y-3 rounded-xl border border-warning/40 bg-warning/10 p-3" role="status">
      <p className="text-sm font-medium">{API_TOKEN_TEXTS.shownOnce}</p>
      {/* Shown whole and wrapped (never cut off or scrolled sideways): it cannot be seen again. */}
      <div className="flex items-start gap-2">
        <code
          className="min-w-0 flex-1 break-all rounded-lg bg-bg/60 px-2 py-1.5 font-mono text-xs"
          data-testid="new-token"
        >
          {token}
        </code>
        <CopyButton value={token} label="token" />
      </div>
      <p className="text-xs text-muted">Upload from a terminal:</p>
      <div className="flex items-start gap-2">
        <code
          className="min-w-0 flex-1 break-all rounded-lg bg-bg/60 px-2 py-1.5 font-mono text-xs"
          data-testid="curl-example"
        >
          {curl}
        </code>
        <CopyButton value={curl} label="command" />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          icon={<Download className="size-4" />}
          onClick={() => downloadSxcu(token)}
        >
          ShareX configuration (.sxcu)
        </Button>
        <Button variant="secondary" size="sm" onClick={onDismiss}>
          Done
        </Button>
      </div>
    </div>
  );
}

function TokenList({
  tokens,
  onChanged,
}: {
  tokens: ApiToken[] | undefined;
  onChanged: () => Promise<void>;
}) {
  const revoke = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  });
  if (!tokens || tokens.length === 0) return <p className="text-sm text-muted">No API tokens yet.</p>;
  return (
    <ul className="space-y-2">
      {tokens.map((t) => (
        <li
          key={t.id}
          data-testid="token-row"
          className="rounded-xl border border-border bg-bg/40 p-3 text-sm"
        >
          <div className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate font-medium">{t.name}</span>
            <code className="shrink-0 font-mono text-xs text-muted" title="The token's first characters">
              {t.hint}…
            </code>
            {t.isExpired && <Badge tone="danger">Expired</Badge>}
            <button
              type="button"
              aria-label={`Revoke ${t.name}`}
              title="Revoke"
              disabled={revoke.isPending}
              onClick={async () => {
                try {
                  await revoke.mutateAsync(t.id);
                  toast.success(API_TOKEN_TEXTS.revoked);
                  await onChanged();
                } catch (err) {
                  toast.error('Could not revoke the token', {
                    description: err instanceof Error ? err.message : undefined,
                  });
                }
              }}
              className="inline-flex size-8 shrink-0 items-center justify-center rounded-lg border border-danger/30 text-danger-text hover:bg-danger/15"
            >
              <Trash className="size-4" />
            </button>
          </div>
          <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1.5 text-xs text-muted">
            <span className="flex flex-wrap gap-1.5" data-testid="token-scopes">
              {t.scopes.map((scope) => (
                <Badge key={scope} tone="brand">
                  <span title={API_TOKEN_SCOPE_LABELS[scope]}>{scope}</span>
                </Badge>
              ))}
            </span>
            <span>
              {t.isExpired ? 'Expired' : 'Expires'} {when(t.expiresAt)}
            </span>
            <span data-testid="token-last-used">Last used {when(t.lastUsedAt)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}
