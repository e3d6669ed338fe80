import {
  CALLBACK_ERROR_REDIRECT_MS,
  CALLBACK_SUCCESS_REDIRECT_MS,
  ROLE_SYNC_TEXTS,
  type SignInResponse,
  STORAGE_KEYS,
  TEXTS,
} from '@guildhall/common';
import { CheckCircle2, Hourglass, UsersRound, XCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, apiFetch } from '../../api/client.ts';
import { forgetNextForDiscord, loginPathFor, recallNextForDiscord } from '../../auth/next-path.ts';
import { useAuth } from '../../auth/useAuth.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { claimCode } from './callback-guard.ts';
import { isCancelled, providerErrorMessage } from './provider-error.ts';

type State =
  | { phase: 'processing' }
  | { phase: 'success'; username: string }
  | { phase: 'error'; message: string }
  /** Signed in at Discord but not approved yet: recorded as pending, waiting for an admin. */
  | { phase: 'pending'; message: string }
  /** The community's Discord server says no (issue 43): not a member of it, or roles that refuse access. */
  | { phase: 'refused'; code: 'NOT_GUILD_MEMBER' | 'ROLE_REFUSED'; message: string };

/** Checks the stored state, exchanges the code through the server, then redirects (2 s / 3 s). */
export function CallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const [state, setState] = useState<State>({ phase: 'processing' });
  // Where sign-in started from (remembered by startDiscordLogin in this tab).
  const [next] = useState(recallNextForDiscord);

  useEffect(() => {
    const code = params.get('code');
    const returnedState = params.get('state');
    const providerError = params.get('error');

    const fail = (message: string) => setState({ phase: 'error', message });
    const run = async () => {
      if (providerError) return fail(providerErrorMessage(providerError));
      if (!code || !returnedState) return fail(TEXTS.missingDiscordParams);
      const guard = claimCode(code);
      if (guard === 'same-page-duplicate') return;
      if (guard === 'duplicate') return fail(TEXTS.requestInProgress);

      const stored = localStorage.getItem(STORAGE_KEYS.oauthState);
      // The stored state is removed after the callback whether it succeeded or failed.
      localStorage.removeItem(STORAGE_KEYS.oauthState);
      if (!stored) return fail(TEXTS.noStoredState);
      if (stored !== returnedState) return fail(TEXTS.invalidState);
      try {
        const res = await apiFetch<SignInResponse>('/api/auth/discord', {
          method: 'POST',
          body: { code, state: returnedState },
          token: null,
        });
        if (!res?.success || !res.token) return fail(TEXTS.discordAuthFailed);
        signIn(res);
        forgetNextForDiscord();
        setState({ phase: 'success', username: res.user.username });
      } catch (e) {
        if (e instanceof ApiError && e.code === 'NOT_APPROVED') {
          return setState({ phase: 'pending', message: e.message || TEXTS.notApproved });
        }
        if (e instanceof ApiError && (e.code === 'NOT_GUILD_MEMBER' || e.code === 'ROLE_REFUSED')) {
          return setState({ phase: 'refused', code: e.code, message: e.message });
        }
        if (e instanceof ApiError) return fail(e.message || TEXTS.authenticationFailed);
        fail(TEXTS.unexpectedError);
      }
    };
    void run();
  }, [params, signIn]);

  useEffect(() => {
    // A pending or refused user stays to read what happens next instead of being bounced back to /login.
    if (state.phase === 'processing' || state.phase === 'pending' || state.phase === 'refused') return;
    // Success: the page sign-in started from, else the dashboard. Error: sign-in again, still
    // carrying that page so a second try returns there too.
    const [to, ms] =
      state.phase === 'success'
        ? [next ?? '/dashboard', CALLBACK_SUCCESS_REDIRECT_MS]
        : [next ? loginPathFor(next) : '/login', CALLBACK_ERROR_REDIRECT_MS];
    const t = setTimeout(() => navigate(to, { replace: true }), ms);
    return () => clearTimeout(t);
  }, [state, navigate, next]);

  return (
    <Page className="flex justify-center">
      <Card className="w-full max-w-md text-center" data-testid="oauth-callback" data-phase={state.phase}>
        {state.phase === 'processing' && (
          <>
            <Spinner className="mx-auto mb-4 size-10" />
            <h1 className="text-xl font-semibold">Signing you in…</h1>
            <p className="mt-1 text-sm text-muted">Completing Discord authentication.</p>
          </>
        )}
        {state.phase === 'success' && (
          <>
            <CheckCircle2 className="mx-auto mb-4 size-12 text-success" />
            <h1 className="text-xl font-semibold">Welcome, {state.username}!</h1>
            <p className="mt-1 text-sm text-muted">
              Authentication successful.{' '}
              {next ? 'Taking you back to where you were…' : 'Redirecting to your dashboard…'}
            </p>
          </>
        )}
        {state.phase === 'pending' && (
          <>
            <Hourglass className="mx-auto mb-4 size-12 text-warning" aria-hidden />
            <h1 className="text-xl font-semibold">Your request is waiting for an admin</h1>
            <p role="alert" className="mt-2 text-sm text-muted">
              {state.message}
            </p>
            <p className="mt-3 text-sm text-muted">
              We have recorded your sign-in. Once an admin approves your account, sign in with Discord again
              to get in.
            </p>
            <Link to="/login" className={buttonClass('secondary', 'md', 'mt-6')}>
              Back to sign-in
            </Link>
          </>
        )}
        {state.phase === 'refused' && (
          <>
            <UsersRound className="mx-auto mb-4 size-12 text-warning" aria-hidden />
            <h1 className="text-xl font-semibold">
              {state.code === 'NOT_GUILD_MEMBER'
                ? ROLE_SYNC_TEXTS.notMemberHeading
                : 'No access with your roles'}
            </h1>
            <p role="alert" className="mt-2 text-sm text-muted">
              {withoutHeading(state.message)}
            </p>
            <Link to="/login" className={buttonClass('secondary', 'md', 'mt-6')}>
              Back to sign-in
            </Link>
          </>
        )}
        {state.phase === 'error' && (
          <>
            <XCircle className="mx-auto mb-4 size-12 text-danger" />
            <h1 className="text-xl font-semibold">
              {isCancelled(params.get('error')) ? 'Sign-in cancelled' : 'Authentication Failed'}
            </h1>
            <p role="alert" className="mt-2 text-sm text-danger-text">
              {state.message}
            </p>
            <p className="mt-3 text-xs text-muted">Returning to the login page…</p>
          </>
        )}
      </Card>
    </Page>
  );
}

/** The API's refusal begins with what the heading already says: the page shows the rest once. */
function withoutHeading(message: string): string {
  const prefix = `${ROLE_SYNC_TEXTS.notMemberHeading}: `;
  return message.startsWith(prefix)
    ? message.slice(prefix.length).replace(/^./, (c) => c.toUpperCase())
    : message;
}
