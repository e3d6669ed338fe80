import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { realClock } from '../../platform/feature.ts';
import { outboundFromConfig } from '../../platform/outbound/index.ts';
import { checkSite } from './scan.ts';
import { disabledSites, disableSite, enableSite, SELF_CHECK_MARK } from './site-state.ts';
import { loadSites, type Site } from './sites.ts';

export type SelfCheckRow = {
  site: string;
  verdict: 'ok' | 'failed' | 'unknown';
  detail: string;
};

const SELF_CHECK_PREFIX = 'Self-check:';

/**
 * The admins' self-check of the site list (issue 28): each site is asked for its known accounts (which
 * must be found) and for a random name (which must not). A site that gets either wrong is disabled
 * (taken out of scans, with why); a site the self-check had disabled that now passes is enabled again.
 * A site that could not be checked (blocked, timed out) is reported and left as it is.
 */
export async function runSelfCheck(
  db: Db,
  config: Config,
  options: { dryRun?: boolean; onRow?: (row: SelfCheckRow) => void } = {},
): Promise<{ rows: SelfCheckRow[]; disabled: number; enabled: number }> {
  const outbound = outboundFromConfig(config.outbound);
  const sites = loadSites(config.osint.sitesFile);
  const listed = await disabledSites(db);
  const alreadyDisabled = new Set(listed.map((r) => r.name));
  const disabledBySelfCheck = new Set(
    listed.filter((r) => r.reason.startsWith(SELF_CHECK_PREFIX)).map((r) => r.name),
  );
  const rows: SelfCheckRow[] = [];
  let disabled = 0;
  let enabled = 0;
  try {
    await Promise.all(
      sites.map(async (site) => {
        const row = await checkOne(outbound, site, config.osint.siteTimeoutMs);
        rows.push(row);
        options.onRow?.(row);
        if (options.dryRun) return;
        if (row.verdict === 'failed' && !alreadyDisabled.has(site.name)) {
          await disableSite(db, site.name, `${SELF_CHECK_PREFIX} ${row.detail}`, realClock.now());
          disabled += 1;
        } else if (row.verdict === 'ok' && disabledBySelfCheck.has(site.name)) {
          await enableSite(db, site.name);
          enabled += 1;
        }
      }),
    );
    if (!options.dryRun)
      await disableSite(db, SELF_CHECK_MARK, `${rows.length} sites checked`, realClock.now());
  } finally {
    await outbound.close();
  }
  rows.sort((a, b) => a.site.localeCompare(b.site));
  return { rows, disabled, enabled };
}

async function checkOne(
  outbound: ReturnType<typeof outboundFromConfig>,
  site: Site,
  timeoutMs: number,
): Promise<SelfCheckRow> {
  const random = `gh${randomBytes(6).toString('hex')}`;
  const known = (site.known ?? []).slice(0, 2);
  const checks = await Promise.all([
    ...known.map(async (k) => ({
      account: k,
      expect: 'found',
      got: await checkSite(outbound, site, k, { timeoutMs, clock: realClock }),
    })),
    {
      account: random,
      expect: 'not_found',
      got: await checkSite(outbound, site, random, { timeoutMs, clock: realClock }),
    },
  ]);
  const wrong = checks.find((c) => c.got.outcome !== 'unknown' && c.got.outcome !== c.expect);
  if (wrong) {
    const what =
      wrong.expect === 'found' ? `known account "${wrong.account}" not found` : 'a random name was found';
    return { site: site.name, verdict: 'failed', detail: what };
  }
  const unknown = checks.find((c) => c.got.outcome === 'unknown');
  if (unknown)
    return { site: site.name, verdict: 'unknown', detail: unknown.got.reason ?? 'could not check' };
  return { site: site.name, verdict: 'ok', detail: `${known.length} known found, random name not found` };
}
