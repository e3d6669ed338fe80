import { ArrowLeft, Construction } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { Page } from '../../ui/Page.tsx';

/** Placeholder for a tool that is not built yet. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <Page className="flex justify-center">
      <Card className="w-full max-w-lg text-center">
        <Construction className="mx-auto mb-3 size-10 text-warning" />
        <h1 className="mb-2 text-2xl font-bold">{title}</h1>
        <p className="text-muted">This tool is coming soon.</p>
        <Link to="/dashboard" className={buttonClass('secondary', 'md', 'mt-6')}>
          <ArrowLeft className="size-4" />
          Back to Dashboard
        </Link>
      </Card>
    </Page>
  );
}
