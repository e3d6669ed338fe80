import type { OsintSource } from '@guildhall/common';
import type { OsintContext, ProgressSink } from '../context.ts';
import { platformSource, scanOptions, scanSites } from '../scan.ts';

export type SourceSet = { sources: OsintSource[]; metadata: Record<string, string | number | boolean> };

/** A username on every site of the list (WhatsMyName's method), progress streamed as it goes. */
export async function usernameSources(
  ctx: OsintContext,
  username: string,
  onProgress?: ProgressSink,
): Promise<SourceSet> {
  const started = ctx.clock.now();
  const checks = await scanSites(ctx.outbound, ctx.sites, username, { ...scanOptions(ctx), onProgress });
  const unknown = checks.filter((c) => c.outcome === 'unknown').length;
  return {
    sources: [platformSource('Social Media Platforms', checks, username, 'account', null, ctx.disabledSites)],
    metadata: {
      username,
      sitesChecked: checks.length,
      sitesUnknown: unknown,
      siteList: 'WhatsMyName (CC BY-SA 4.0)',
      scanSeconds: Math.round((ctx.clock.now() - started) / 100) / 10,
    },
  };
}
