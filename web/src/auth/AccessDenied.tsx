import { type AccessLevel, LEVEL_LABELS } from '@guildhall/common';
import { ArrowLeft, ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { Page } from '../ui/Page.tsx';

/** Shown to a signed-in user who lacks the level a route needs. */
export function AccessDenied({
  required,
  current,
  message,
}: {
  required: AccessLevel;
  current?: AccessLevel | null;
  message?: string;
}) {
  return (
    <Page className="flex justify-center">
      <Card className="w-full max-w-lg text-center">
        <ShieldAlert className="mx-auto mb-3 size-12 text-danger" />
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
          Please contact an administrator if you believe you need access.
        </p>
        <Link to="/dashboard" className={buttonClass('secondary', 'md', 'mt-6')}>
          <ArrowLeft className="size-4" />
          Back to Dashboard
        </Link>
      </Card>
    </Page>
  );
}
