import { randomUUID } from 'node:crypto';
import {
  ApiError,
  isPlatformData,
  OSINT_HISTORY_TEXTS,
  OSINT_REPORTS_TO_DISABLE,
  type OsintReport,
  OsintReportBody,
  OsintReportDecisionBody,
  OsintReportDecisionResponse,
  OsintReportIdParams,
  OsintReportsResponse,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { httpError } from '../../platform/errors.ts';
import type { FeatureContext } from '../../platform/feature.ts';
import { recordActivity } from '../admin/index.ts';
import { getSearch } from './history.ts';
import { disableSite, enableSite, SELF_CHECK_MARK } from './site-state.ts';

const REPORTS_LISTED = 200;
const REPORTED_REASON = `Reported wrong by ${OSINT_REPORTS_TO_DISABLE} members; waiting for an admin`;

/**
 * "Report a wrong result" (issue 28): a member flags one site's verdict in one of their searches;
 * admins review the reports. A site reported by OSINT_REPORTS_TO_DISABLE different members is taken out
 * of scans until an admin decides (accepting keeps it out; dismissing every report brings it back).
 */
export function osintReportRoutes(deps: FeatureContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/osint/reports',
      {
        config: { access: 'login', rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          body: OsintReportBody,
          response: {
            201: z.object({ id: z.string(), siteDisabled: z.boolean() }),
            400: ApiError,
            404: ApiError,
          },
        },
      },
      async (req, reply) => {
        const user = req.auth!.user;
        const body = req.body;
        const search = await getSearch(
          deps.db,
          user.discord_id,
          body.searchId,
          deps.config.osint.historyDays,
        );
        if (!search) throw httpError(404, OSINT_HISTORY_TEXTS.notFound, 'NOT_FOUND');
        const platform = search.sources
          .map((s) => s.data)
          .filter(isPlatformData)
          .find(
            (d) =>
              d.sources.some((p) => p.name === body.site) || d.unchecked?.some((u) => u.name === body.site),
          );
        if (!platform) throw httpError(400, 'That site is not in this search', 'BAD_SITE');
        if (/[\p{Cc}]/u.test(body.note ?? ''))
          throw httpError(400, 'note must not contain control characters', 'BAD_NOTE');
        const id = randomUUID();
        await deps.db
          .insertInto('osint_site_reports')
          .values({
            id,
            search_id: body.searchId,
            site: body.site,
            account: platform.account ?? search.query,
            verdict: body.verdict,
            note: body.note || null,
            reporter_id: user.discord_id,
            reporter_name: user.username,
            status: 'open',
            created_at: new Date().toISOString(),
          })
          .execute();
        const reporters = await deps.db
          .selectFrom('osint_site_reports')
          .select((eb) => eb.fn.count<number>('reporter_id').distinct().as('n'))
          .where('site', '=', body.site)
          .where('status', '=', 'open')
          .executeTakeFirst();
        const siteDisabled = Number(reporters?.n ?? 0) >= OSINT_REPORTS_TO_DISABLE;
        if (siteDisabled) await disableSite(deps.db, body.site, REPORTED_REASON);
        return reply.code(201).send({ id, siteDisabled });
      },
    );

    app.get(
      '/api/osint/reports',
      { config: { access: 'admin' }, schema: { response: { 200: OsintReportsResponse } } },
      async () => {
        const rows = await deps.db
          .selectFrom('osint_site_reports')
          .selectAll()
          .orderBy('created_at', 'desc')
          .limit(REPORTS_LISTED)
          .execute();
        const disabled = await deps.db
          .selectFrom('osint_disabled_sites')
          .selectAll()
          .where('name', '!=', SELF_CHECK_MARK)
          .orderBy('disabled_at', 'desc')
          .execute();
        return {
          reports: rows.map(
            (r): OsintReport => ({
              id: r.id,
              site: r.site,
              account: r.account,
              verdict: r.verdict,
              note: r.note,
              reporter: r.reporter_name,
              createdAt: r.created_at,
              status: r.status as OsintReport['status'],
            }),
          ),
          disabledSites: disabled.map((d) => ({ name: d.name, reason: d.reason, disabledAt: d.disabled_at })),
        };
      },
    );

    app.put(
      '/api/osint/reports/:id',
      {
        config: { access: 'admin' },
        schema: {
          params: OsintReportIdParams,
          body: OsintReportDecisionBody,
          response: { 200: OsintReportDecisionResponse, 404: ApiError },
        },
      },
      async (req) => {
        const report = await deps.db
          .selectFrom('osint_site_reports')
          .selectAll()
          .where('id', '=', req.params.id)
          .executeTakeFirst();
        if (!report) throw httpError(404, 'Report not found', 'NOT_FOUND');
        const { decision } = req.body;
        // Accepting closes the site's open reports; dismissing (re-enabling) closes every report that
        // kept it disabled, an earlier acceptance included, so the list never says "accepted" of a site
        // that is scanned again.
        await deps.db
          .updateTable('osint_site_reports')
          .set({ status: decision })
          .where('site', '=', report.site)
          .where('status', 'in', decision === 'accepted' ? ['open'] : ['open', 'accepted'])
          .execute();
        if (decision === 'accepted')
          await disableSite(deps.db, report.site, 'A report was accepted by an admin');
        else await enableSite(deps.db, report.site);
        const user = req.auth!.user;
        await recordActivity(deps.db, {
          actor: { id: user.discord_id, username: user.username },
          action: `osint.report.${decision}`,
          target: { id: report.id, name: report.site },
          details: { site: report.site, account: report.account },
        });
        return { site: report.site, siteDisabled: decision === 'accepted' };
      },
    );
  };
}
