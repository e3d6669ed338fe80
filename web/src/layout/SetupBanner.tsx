import { DEMO_USER_ID } from '@guildhall/common';
import { Wrench } from 'lucide-react';
import { Link } from 'react-router';
import { usePublicConfig } from '../auth/public-config.ts';
import { useAuth } from '../auth/useAuth.ts';

/**
 * Setup mode (no admin exists) is only visible here: the access-code identity acts as Admin until
 * a real admin is added, so the banner names that and the next step.
 */
export function SetupBanner() {
  const { user } = useAuth();
  const config = usePublicConfig();
  if (!config?.setupMode || user?.id !== DEMO_USER_ID) return null;
  return (
    <section
      aria-label="Setup mode"
      data-testid="setup-banner"
      className="border-b border-warning/40 bg-warning/15 px-3 py-2.5 text-sm text-warning-text sm:px-6"
    >
      <div className="mx-auto flex max-w-7xl flex-col gap-1.5 sm:flex-row sm:items-center sm:gap-4">
        <p className="min-w-0 flex-1">
          <Wrench className="mr-1.5 inline size-4 align-[-2px]" aria-hidden />
          <strong>Setup mode:</strong> no admin exists yet, so this access-code identity acts as Admin.{' '}
          {config.oauthConfigured
            ? 'Next step: add your Discord account as an Admin, then sign in with Discord.'
            : // Adding an admin now would end setup mode with nobody able to sign in as that admin (issue 32).
              'Next step: set up Discord sign-in on the server (see the README) before adding your Discord account as an Admin; once an Admin exists, the access code signs in as a viewer.'}
        </p>
        <Link to="/admin" className="shrink-0 font-semibold underline underline-offset-2">
          Open the Admin Panel
        </Link>
      </div>
    </section>
  );
}
