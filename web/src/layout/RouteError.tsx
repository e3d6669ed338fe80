import { TEXTS } from '@guildhall/common';
import { Home, RotateCw, TriangleExclamationPoint } from 'lucide-react';
import type { FallbackProps } from 'react-error-boundary';
import { Link } from 'react-router';
import { Button, buttonClass } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { Page } from '../ui/Page.tsx';
import { isChunkLoadError } from './chunk-error.ts';

/**
 * A route that failed to render: the spec's "Unexpected Application Error", inside the layout, with a
 * member-facing reason and Reload (what fixes a page file missing after a deploy). The raw message is
 * kept under Technical details for whoever reports it.
 */
export function RouteError({ error }: FallbackProps) {
  const detail = error instanceof Error ? error.message : String(error);
  const isChunk = isChunkLoadError(error);
  return (
    <Page className="flex justify-center">
      <Card className="w-full max-w-lg text-center" data-testid="route-error">
        <TriangleExclamationPoint className="mx-auto mb-3 size-12 text-warning" aria-hidden />
        <h1 className="mb-2 text-2xl font-bold">{TEXTS.unexpectedApplicationError}</h1>
        <p className="text-muted" data-testid="route-error-message">
          {isChunk
            ? 'This page could not be loaded. The portal may have been updated since you opened it, or the connection dropped. Reload to get the current version.'
            : 'Something went wrong while showing this page. Reloading usually fixes it; if it keeps happening, tell an admin what you were doing.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <Button icon={<RotateCw className="size-4" aria-hidden />} onClick={() => window.location.reload()}>
            Reload
          </Button>
          <Link to="/" className={buttonClass('secondary')}>
            <Home className="size-4" aria-hidden />
            Go Home
          </Link>
        </div>
        {detail && (
          <details className="mt-6 text-left text-xs text-muted">
            <summary className="cursor-pointer">Technical details</summary>
            <p className="mt-2 font-mono break-all">{detail}</p>
          </details>
        )}
      </Card>
    </Page>
  );
}
