import { Compass, Home } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useAuth } from '../../auth/useAuth.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { Page } from '../../ui/Page.tsx';

/** An address no route matches: a page inside the layout with a way on (RouteError stays for real failures). */
export function NotFoundPage() {
  const { pathname } = useLocation();
  const { user } = useAuth();
  return (
    <Page className="flex justify-center">
      <Card className="w-full max-w-lg text-center" data-testid="not-found">
        <Compass className="mx-auto mb-3 size-12 text-muted" aria-hidden />
        <h1 className="mb-2 text-2xl font-bold">Page not found</h1>
        <p className="text-muted">
          Nothing lives at <code className="break-all font-mono text-text">{pathname}</code>. Check the
          address, or go on from here.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <Link to="/" className={buttonClass('primary')}>
            <Home className="size-4" aria-hidden />
            Home
          </Link>
          {user && (
            <Link to="/dashboard" className={buttonClass('secondary')}>
              Dashboard
            </Link>
          )}
        </div>
      </Card>
    </Page>
  );
}
