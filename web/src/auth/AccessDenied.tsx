import { type AccessLevel, hasLevel, LEVEL_LABELS } from '@guildhall/common';
import { ArrowLeft, Home, ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { Page } from '../ui/Page.tsx';

/**
 * Shown to a signed-in user who lacks the level a route needs. The way out never leads back here:
 * a member (user+) goes back to the dashboard, a viewer (who cannot open the dashboard) goes Home.
 */
export function AccessDenied({
  required,
  current,
  message,
}: {
  required: AccessLevel;
  current?: AccessLevel | null;
  message?: string;
}) {
  const canUseDashboard = current ? hasLevel(current, 'user') : false;
  return (
    <Page className="flex justify-center">
      <Card className="w-full max-w-lg text-center" data-testid="access-denied">
        <ShieldAlert className="mx-auto mb-3 size-12 text-danger" aria-hidden />
        <h1 className="mb-2 text-2xl font-bold">Access Denied</h1>
        {message && <p className="mb-2 text-text">{message}</p>}
        <p className="text-muted">
          This page requires <strong className="text-text">{LEVEL_LABELS[required]}</strong> access level or
          higher.
        </p>
        <p className="mt-1 text-muted">
          Your current level:{' '}
          <strong className="text-text">{current ? LEVEL_LABELS[current] : 'Unknown'}</strong>
        </p>
        <p className="mt-3 text-sm text-muted">
          {canUseDashboard
            ? 'Please contact an administrator if you believe you need access.'
            : `To get upgraded, ask an admin of your community to raise your account to ${LEVEL_LABELS[required]} in the admin panel, then sign in again.`}
        </p>
        {canUseDashboard ? (
          <Link to="/dashboard" className={buttonClass('secondary', 'md', 'mt-6')}>
            <ArrowLeft className="size-4" aria-hidden />
            Back to Dashboard
          </Link>
        ) : (
          <Link to="/" className={buttonClass('primary', 'md', 'mt-6')}>
            <Home className="size-4" aria-hidden />
            Home
          </Link>
        )}
      </Card>
    </Page>
  );
}
