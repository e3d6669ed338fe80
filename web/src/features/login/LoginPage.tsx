import { type SignInResponse, TEXTS } from '@guildhall/common';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { apiFetch } from '../../api/client.ts';
import { AFTER_SIGN_IN_DEFAULT, NEXT_PARAM, safeNextPath } from '../../auth/next-path.ts';
import { usePublicConfig } from '../../auth/public-config.ts';
import { useAuth } from '../../auth/useAuth.ts';
import { Logo } from '../../layout/Logo.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { Page } from '../../ui/Page.tsx';
import { DiscordIcon } from './DiscordIcon.tsx';
import { startDiscordLogin } from './discord-login.ts';

export function LoginPage() {
  const { status, signIn } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Back to the page that sent the member here (guards, share links), never off this site.
  const next = safeNextPath(params.get(NEXT_PARAM));
  const destination = next ?? AFTER_SIGN_IN_DEFAULT;
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [discordBusy, setDiscordBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const config = usePublicConfig();
  // Members get a hint; the operator's fix ("check your environment variables") is in the server log.
  const discordOff = config !== null && !config.oauthConfigured;

  if (status === 'signed-in') return <Navigate to={destination} replace />;

  const onDiscord = async () => {
    setError(null);
    if (discordOff) return;
    setDiscordBusy(true);
    try {
      await startDiscordLogin(next);
    } catch (e) {
      setError(e instanceof Error ? e.message : TEXTS.oauthUrlFailed);
      setDiscordBusy(false);
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code) return;
    setBusy(true);
    setError(null);
    try {
      const res = await apiFetch<SignInResponse>('/api/auth/access-code', {
        method: 'POST',
        body: { code },
        token: null,
      });
      signIn(res);
      navigate(destination, { replace: true });
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : TEXTS.loginFailed);
      setBusy(false);
    }
  };

  return (
    <Page className="flex justify-center">
      <Card className="w-full max-w-md p-6 sm:p-8">
        <div className="mb-6 text-center">
          <Logo className="mx-auto mb-4 size-12" />
          <h1 className="text-2xl font-bold">Sign in to Guildhall</h1>
          <p className="mt-1 text-sm text-muted">Members of the community only.</p>
        </div>

        <Button
          size="lg"
          className="w-full bg-[#5865F2]"
          onClick={onDiscord}
          disabled={discordBusy || discordOff}
          aria-describedby={discordOff ? 'discord-off-hint' : undefined}
          icon={<DiscordIcon className="size-5" />}
        >
          {discordBusy ? 'Redirecting to Discord...' : 'Continue with Discord'}
        </Button>
        {discordOff && (
          <p
            id="discord-off-hint"
            className="mt-2 text-center text-xs text-muted"
            data-testid="discord-off-hint"
          >
            Discord sign-in is not set up on this portal yet. Use an access code, or ask whoever runs it.
          </p>
        )}

        <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-wider text-muted">
          <span className="h-px flex-1 bg-border" />
          or
          <span className="h-px flex-1 bg-border" />
        </div>

        <form onSubmit={onSubmit} className="space-y-3">
          <label htmlFor="access-code" className="block text-sm font-medium">
            Access Code
          </label>
          <div className="relative">
            <KeyRound className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" />
            <input
              id="access-code"
              type="password"
              autoComplete="current-password"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              className="h-11 w-full rounded-lg border border-border bg-bg pr-3 pl-9 text-sm outline-none placeholder:text-muted/60 focus:border-brand"
              placeholder="Enter access code"
            />
          </div>
          <p className="text-xs text-muted">Not applicable unless you were specially given one.</p>
          {error && (
            <p
              role="alert"
              className="rounded-lg border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger-text"
            >
              {error}
            </p>
          )}
          <Button type="submit" variant="secondary" size="lg" className="w-full" disabled={!code || busy}>
            {busy ? 'Authenticating...' : 'Access Utilities'}
          </Button>
        </form>

        <p className="mt-6 text-center text-xs text-muted">
          Need access? If nobody gave you a way in, this place is not for you.
        </p>
      </Card>
    </Page>
  );
}
