import { type LivenessResponse, OPS_PATHS } from '@guildhall/common';
import { useQuery } from '@tanstack/react-query';
import { BookOpen } from 'lucide-react';
import { Link } from 'react-router';
import { apiFetch } from '../../api/client.ts';
import { fetchMusicBotHolder } from './api.ts';

/**
 * The release the server runs (from /healthz), which instance holds the music bot (issue 42) and the way to
 * the API reference (issue 32).
 */
export function VersionLine() {
  const health = useQuery({
    queryKey: ['healthz'],
    queryFn: () => apiFetch<LivenessResponse>(OPS_PATHS.liveness),
    staleTime: 5 * 60_000,
  });
  const version = health.data ? `v${health.data.version}` : health.isError ? 'version unknown' : '…';
  const bot = useQuery({ queryKey: ['music-bot-holder'], queryFn: fetchMusicBotHolder, staleTime: 30_000 });
  const holder = bot.data
    ? bot.data.holder === null
      ? bot.data.leased
        ? 'no instance (handing over)'
        : 'not configured'
      : bot.data.holder === bot.data.thisInstance
        ? `this instance (${bot.data.holder})`
        : bot.data.holder
    : null;
  return (
    <p
      className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted"
      data-testid="version-line"
    >
      <span>Guildhall {version}</span>
      {holder && <span data-testid="music-bot-holder">Music bot: {holder}</span>}
      <Link to="/admin/api" className="inline-flex items-center gap-1 text-brand-text hover:underline">
        <BookOpen className="size-4" aria-hidden />
        API reference
      </Link>
    </p>
  );
}
