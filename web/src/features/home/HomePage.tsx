import { hasLevel, memberName } from '@guildhall/common';
import { ArrowRight, FolderOpen, Gamepad2, LogIn, Music, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { useAuth } from '../../auth/useAuth.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { Page } from '../../ui/Page.tsx';

const HIGHLIGHTS = [
  { icon: FolderOpen, title: 'Shared files', text: 'Folders, uploads and share links for the community.' },
  { icon: Music, title: 'Music control', text: 'Queue, playlists and effects for the server bot.' },
  { icon: Gamepad2, title: 'Minigames', text: 'Tic-tac-toe and Pictionary with friends.' },
  { icon: ShieldCheck, title: 'Members only', text: 'Approved accounts and access levels guard every tool.' },
];

export function HomePage() {
  const { user, status } = useAuth();
  const isMember = user ? hasLevel(user.accessLevel, 'user') : false;
  return (
    <Page>
      <section className="relative overflow-hidden rounded-3xl border border-border bg-gradient-to-br from-brand/25 via-surface to-surface px-6 py-12 text-center sm:px-12 sm:py-16">
        <p className="mb-3 text-sm font-medium uppercase tracking-[0.2em] text-brand-text">Guildhall</p>
        <h1 className="mx-auto max-w-2xl text-2xl wrap-anywhere font-bold tracking-tight sm:text-5xl">
          {user ? `Welcome, ${memberName(user)}!` : 'Welcome to the Guildhall'}
        </h1>
        <p className="mx-auto mt-4 max-w-xl text-base text-muted sm:text-lg">
          The private toolbox of our Discord community: files, music, games and more, in one place.
        </p>
        <div className="mt-8 flex flex-col items-center gap-3">
          {status === 'signed-in' && user && !isMember && (
            <p className="max-w-md rounded-xl border border-warning/30 bg-warning/10 px-4 py-3 text-sm text-warning-text">
              Your account has viewer access. Ask an admin to upgrade you to user level to use the tools.
            </p>
          )}
          {isMember && (
            <Link to="/dashboard" className={buttonClass('primary', 'lg')}>
              Go to Dashboard
              <ArrowRight className="size-4" />
            </Link>
          )}
          {status === 'signed-out' && (
            <Link to="/login" className={buttonClass('primary', 'lg')}>
              <LogIn className="size-4" />
              Sign in
            </Link>
          )}
        </div>
      </section>
      <section className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
          <div key={title} className="rounded-2xl border border-border bg-surface/60 p-5">
            <Icon className="mb-3 size-6 text-brand" />
            <h2 className="font-semibold">{title}</h2>
            <p className="mt-1 text-sm text-muted">{text}</p>
          </div>
        ))}
      </section>
    </Page>
  );
}
