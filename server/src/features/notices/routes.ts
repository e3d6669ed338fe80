import {
  NOTICE_REQUESTS_PER_MINUTE,
  NOTICE_TEXTS,
  NoticeSettingsBody,
  NoticeSettingsResponse,
  NoticesListResponse,
  NoticesReadBody,
  NoticesUnreadResponse,
  OkResponse,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fail } from '../../platform/errors.ts';
import type { FeatureContext } from '../../platform/feature.ts';
import { perMemberKey } from '../../platform/rate-limit/keys.ts';
import type { NoticesConfig } from './index.ts';
import { presentNotice } from './present.ts';
import { isDmAllowed, markNoticesRead, noticesOf, setDmAllowed, unreadCount } from './service.ts';

/** Every notices route: the member's own, with a per-member budget that says so when it runs out. */
const own = {
  access: 'login',
  rateLimit: {
    max: NOTICE_REQUESTS_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: perMemberKey,
    errorResponseBuilder: () => fail('TOO_MANY_NOTICE_REQUESTS', NOTICE_TEXTS.tooMany),
  },
} as const;

/** Notices (issue 45): the member's list, unread count, marking read, and the Discord DM setting. */
export function noticeRoutes({ db, config, clock }: FeatureContext<NoticesConfig>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/notices',
      { config: own, schema: { response: { 200: NoticesListResponse } } },
      async (req) => {
        const { rows, unread } = await noticesOf(db, req.auth!.user.discord_id);
        return { success: true as const, data: rows.map(presentNotice), unread };
      },
    );

    app.get(
      '/api/notices/unread',
      { config: own, schema: { response: { 200: NoticesUnreadResponse } } },
      async (req) => ({ success: true as const, unread: await unreadCount(db, req.auth!.user.discord_id) }),
    );

    app.post(
      '/api/notices/read',
      { config: own, schema: { body: NoticesReadBody, response: { 200: OkResponse } } },
      async (req) => {
        await markNoticesRead(db, req.auth!.user.discord_id, req.body.ids, new Date(clock.now()));
        return { success: true as const, message: 'Marked as read' };
      },
    );

    app.get(
      '/api/notices/settings',
      { config: own, schema: { response: { 200: NoticeSettingsResponse } } },
      async (req) => ({
        success: true as const,
        data: {
          discordDm: await isDmAllowed(db, req.auth!.user.discord_id),
          botAvailable: config.botConfigured,
        },
      }),
    );

    app.put(
      '/api/notices/settings',
      { config: own, schema: { body: NoticeSettingsBody, response: { 200: NoticeSettingsResponse } } },
      async (req) => {
        await setDmAllowed(db, req.auth!.user.discord_id, req.body.discordDm, new Date(clock.now()));
        return {
          success: true as const,
          data: { discordDm: req.body.discordDm, botAvailable: config.botConfigured },
        };
      },
    );
  };
}
