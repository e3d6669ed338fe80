import type { OsintProgress } from '@guildhall/common';
import type { Clock } from '../../platform/feature.ts';
import type { Outbound } from '../../platform/outbound/index.ts';
import type { OsintConfig } from './config.ts';
import type { GeoLookup } from './geo.ts';
import type { RdapClient } from './rdap.ts';
import type { Site } from './sites.ts';
import type { SourceLog } from './source-result.ts';

/** What every source needs: the one outbound fetcher, the configured endpoints, the site list. */
export type OsintContext = {
  outbound: Outbound;
  config: OsintConfig;
  sites: Site[];
  /** Sites of the list left out of this search (disabled by reports or the self-check). */
  disabledSites?: string[];
  rdap: RdapClient;
  geo: GeoLookup;
  /** The feature's clock: cache ages, certificate days, scan timings and Retry-After waits. */
  clock: Clock;
  /** This search's: stops everything when the member goes away. */
  signal?: AbortSignal;
  /** Operator-facing log of a source's failure (members see a plain reason). */
  log?: SourceLog;
};

/** Reports a username scan's progress (sites checked, hits since the last report). */
export type ProgressSink = (progress: Omit<OsintProgress, 'searchId'>) => void;

/** Time limits of the sources that are not per-site checks. */
export const SOURCE_TIMEOUT_MS = 10_000;
