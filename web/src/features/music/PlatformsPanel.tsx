import { MUSIC_TEXTS as T } from '@guildhall/common';
import { useQuery } from '@tanstack/react-query';
import { Radio } from 'lucide-react';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { cn } from '../../ui/cn.ts';
import * as api from './api.ts';

const RECHECK_MS = 60_000;

/** Each source with its real availability (the server's health check), and why when unavailable. */
export function PlatformsPanel() {
  const platforms = useQuery({
    queryKey: ['music', 'platforms'],
    queryFn: api.fetchPlatforms,
    refetchInterval: RECHECK_MS,
  });
  return (
    <Card className="p-4 sm:p-5">
      <CardTitle icon={<Radio className="size-4" />}>Platforms</CardTitle>
      {platforms.isError ? (
        <p className="text-sm text-muted">Could not check the platforms.</p>
      ) : (
        <ul className="space-y-2 text-sm" data-testid="platforms">
          {(platforms.data ?? []).map((p) => (
            <li key={p.platform} data-testid={`platform-${p.platform}`} className="space-y-0.5">
              <div className="flex items-center justify-between gap-2">
                <span>{p.name}</span>
                <span
                  className={cn(
                    'flex items-center gap-1.5 text-xs font-medium',
                    p.available ? 'text-success-text' : 'text-danger-text',
                  )}
                >
                  <span className={cn('size-1.5 rounded-full', p.available ? 'bg-success' : 'bg-danger')} />
                  {p.available ? T.available : T.unavailable}
                </span>
              </div>
              {!p.available && p.reason && <p className="text-xs text-muted">{p.reason}</p>}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
