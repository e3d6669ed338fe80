import { TEXTS } from '@guildhall/common';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { buttonClass } from '../../ui/Button.tsx';
import { Page } from '../../ui/Page.tsx';

/** The router's error element: unhandled routing errors show Unexpected Application Error. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText || (error.status === 404 ? 'Not Found' : '')}`.trim()
    : error instanceof Error
      ? error.message
      : null;
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
