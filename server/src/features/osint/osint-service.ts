import fs from 'node:fs';
import {
  OSINT_HISTORY_TEXTS,
  OSINT_PROGRESS_EVENT,
  OSINT_SEARCHES_RUNNING_MAX,
  type OsintHistoryResponse,
  type OsintReportBody,
  type OsintResult,
  type OsintSearchBody,
  type OsintSiteListInfo,
  userRoom,
} from '@guildhall/common';
import { fail, HttpError } from '../../platform/errors.ts';
import type { FeatureContext } from '../../platform/feature.ts';
import type { OsintFeatureConfig } from './config.ts';
import type { OsintContext } from './context.ts';
import { exportFileName, searchToCsv } from './export.ts';
import { getSearch, listSearches, pruneSearches } from './history.ts';
import { decideReport, fileReport, listReports } from './reports.ts';
import { disabledSiteNames, siteListInfo } from './site-state.ts';
import type { SourceLog } from './source-result.ts';

type Member = { discord_id: string; username: string };

type Loaded = {
  ctx: OsintContext;
  runSearch: typeof import('./service.ts').runSearch;
  outboundScope: typeof import('../../platform/outbound/index.ts').outboundScope;
};

export type OsintService = ReturnType<typeof createOsintService>;

/**
 * The OSINT feature's services, built once in its `setup` from the feature context; the routes only
 * parse, call these and answer. The sources, the fetcher and the site list load on the first search, so
 * they cost nothing at start-up (bench/startup). Every time comes from the context's clock.
 */
export function createOsintService(deps: FeatureContext<OsintFeatureConfig>) {
  const { db, config, clock } = deps;
  let loaded: Promise<Loaded> | undefined;
  const load = () => {
    loaded ??= (async () => {
      const [
        outbound,
        { outboundScope },
        { createRdapClient },
        { createGeoLookup },
        { loadSites },
        { runSearch },
      ] = await Promise.all([
        deps.outbound(), // the platform's one fetcher, created on first use
        import('../../platform/outbound/index.ts'),
        import('./rdap.ts'),
        import('./geo.ts'),
        import('./sites.ts'),
        import('./service.ts'),
      ]);
      const ctx: OsintContext = {
        outbound,
        config,
        clock,
        sites: loadSites(config.sitesFile),
        rdap: createRdapClient(outbound, config.rdapBootstrapUrl, clock),
        geo: createGeoLookup(),
      };
      return { ctx, runSearch, outboundScope };
    })();
    loaded.catch(() => {
      loaded = undefined;
    });
    return loaded;
  };
  /** Searches running per member: at most OSINT_SEARCHES_RUNNING_MAX at once. */
  const running = new Map<string, number>();

  const ownSearch = async (user: Member, id: string): Promise<OsintResult> => {
    const result = await getSearch(db, user.discord_id, id, config.historyDays, clock.now());
    if (!result) throw fail('NOT_FOUND', OSINT_HISTORY_TEXTS.notFound);
    return result;
  };

  return {
    /**
     * One search for `user`, stopped by `signal` (its page went away); progress of a username scan is
     * pushed to the member's room under the page's `searchId`.
     */
    async search(
      user: Member,
      body: OsintSearchBody,
      signal: AbortSignal,
      log: SourceLog,
    ): Promise<OsintResult> {
      const busy = running.get(user.discord_id) ?? 0;
      if (busy >= OSINT_SEARCHES_RUNNING_MAX)
        throw fail('TOO_MANY_SEARCHES', OSINT_HISTORY_TEXTS.tooManyRunning);
      running.set(user.discord_id, busy + 1);
      try {
        const { ctx, runSearch, outboundScope } = await load();
        const disabled = await disabledSiteNames(db);
        const searchCtx: OsintContext = {
          ...ctx,
          sites: disabled.size > 0 ? ctx.sites.filter((s) => !disabled.has(s.name)) : ctx.sites,
          disabledSites: ctx.sites.filter((s) => disabled.has(s.name)).map((s) => s.name),
          signal,
          log,
        };
        const { searchId } = body;
        return await outboundScope.run({ owner: user.discord_id, signal }, () =>
          runSearch(
            searchCtx,
            db,
            { id: user.discord_id, username: user.username },
            body,
            searchId
              ? (progress) =>
                  deps.publish(userRoom(user.discord_id), OSINT_PROGRESS_EVENT, { searchId, ...progress })
              : undefined,
          ),
        );
      } catch (err) {
        if (signal.aborted && !(err instanceof HttpError)) {
          // Nobody is listening; the status is for the log.
          throw fail('SEARCH_ABORTED', 'The search was stopped because its page went away');
        }
        throw err;
      } finally {
        const n = (running.get(user.discord_id) ?? 1) - 1;
        if (n > 0) running.set(user.discord_id, n);
        else running.delete(user.discord_id);
      }
    },

    async history(user: Member): Promise<OsintHistoryResponse> {
      return {
        searches: await listSearches(db, user.discord_id, config.historyDays, clock.now()),
        keptDays: config.historyDays,
      };
    },

    ownSearch,

    /** A stored search as a file: its name, type and text. */
    async exportSearch(user: Member, id: string, format: 'json' | 'csv') {
      const result = await ownSearch(user, id);
      const name = exportFileName(result, format, clock.now());
      return format === 'csv'
        ? { name, type: 'text/csv; charset=utf-8', text: searchToCsv(result) }
        : { name, type: 'application/json; charset=utf-8', text: JSON.stringify(result, null, 2) };
    },

    async siteList(): Promise<OsintSiteListInfo> {
      const { ctx } = await load();
      // A replaced list (OSINT_SITES_FILE) is as old as its file.
      const listDate = config.sitesFile
        ? fs.statSync(config.sitesFile).mtime.toISOString().slice(0, 10)
        : undefined;
      return siteListInfo(db, ctx.sites, listDate);
    },

    report: (user: Member, body: OsintReportBody) =>
      fileReport(db, clock.now(), config.historyDays, user, body),
    reports: () => listReports(db),
    decide: (admin: Member, id: string, decision: 'accepted' | 'dismissed') =>
      decideReport(db, clock.now(), admin, id, decision),
    /** Drops searches older than OSINT_HISTORY_DAYS; returns how many. */
    prune: () => pruneSearches(db, config.historyDays, clock.now()),
  };
}
