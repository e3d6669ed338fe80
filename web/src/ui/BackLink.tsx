import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from './Button.tsx';

/** The "← Back to …" link at the top of a page; its arrow lines up with the page's left edge. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={buttonClass('ghost', 'sm', '-ml-3')}>
      <ArrowLeft className="size-4" />
      {children}
    </Link>
  );
}
