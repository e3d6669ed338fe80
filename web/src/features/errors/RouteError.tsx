import { TEXTS } from '@guildhall/common';
import type { FallbackProps } from 'react-error-boundary';
import { Link } from 'react-router';
import { buttonClass } from '../../ui/Button.tsx';
import { Page } from '../../ui/Page.tsx';

/** The routes' error boundary: an unhandled error while rendering a route shows Unexpected Application Error. */
export function RouteError({ error }: FallbackProps) {
  const detail = error instanceof Error ? error.message : null;
  return (
    <Page className="flex min-h-screen flex-col items-center justify-center text-center">
      <h1 className="mb-2 text-2xl font-bold">{TEXTS.unexpectedApplicationError}</h1>
      {detail && <p className="mb-6 font-mono text-sm text-muted">{detail}</p>}
      <Link to="/" className={buttonClass('secondary')}>
        Go Home
      </Link>
    </Page>
  );
}
