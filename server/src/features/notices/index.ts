/**
 * Notices (issue 45): what a member is told about their shares and upload links, in the portal and,
 * through the Discord bot's holder, as direct messages. Other features record them with `recordNotice`.
 */
import { beatOn, defineFeature } from '../../platform/feature.ts';
import { startDmSender } from './dm.ts';
import { noticeRoutes } from './routes.ts';
import { purgeOldNotices } from './service.ts';

export { type NoticeInput, recordNotice } from './service.ts';
export type { NoticesTables } from './tables.ts';

/** The notices feature's slice: whether a bot can send DMs, and the origin links in them point at. */
export type NoticesConfig = { botConfigured: boolean; publicUrl: string | undefined };

/** Old notices are purged this often (on the injected clock). */
export const NOTICE_PURGE_EVERY_MS = 60 * 60_000;

type State = { stops: (() => void)[] };

export const noticesFeature = defineFeature<State, NoticesConfig>({
  name: 'notices',
  config: (c) => ({ botConfigured: !!c.discord.botToken, publicUrl: c.publicUrl }),
  setup: () => ({ stops: [] }),
  routes: (ctx) => noticeRoutes(ctx),
  start: ({ db, clock, log, botHolder, config }, state) => {
    state.stops.push(
      beatOn(clock, NOTICE_PURGE_EVERY_MS, async () => {
        await purgeOldNotices(db, clock.now()).catch((err: unknown) =>
          log.error({ err }, 'purging old notices failed'),
        );
      }),
    );
    if (config.botConfigured) {
      state.stops.push(startDmSender({ db, clock, log, botHolder, publicUrl: config.publicUrl }));
    }
  },
  stop: (_ctx, state) => {
    for (const stop of state.stops.splice(0)) stop();
  },
});
