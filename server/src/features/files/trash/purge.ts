import type { FastifyBaseLogger } from 'fastify';
import { beatOn } from '../../../platform/feature.ts';
import type { FilesContext } from '../context.ts';
import { purgeExpiredTrash } from './service.ts';

/** How often the trash is checked for items past their 30 days (and once at start). */
export const TRASH_PURGE_INTERVAL_MS = 60 * 60_000;

/** Purges expired trash at start and hourly; `stop()` waits for a run in progress. */
export function startTrashPurge(ctx: Pick<FilesContext, 'db' | 'garbage' | 'clock'>, log: FastifyBaseLogger) {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= purgeExpiredTrash(ctx, new Date(ctx.clock.now()))
      .then((n) => {
        if (n > 0) log.info({ purged: n }, 'trash: purged items past their retention');
      })
      .catch((err: unknown) => log.error({ err }, 'trash purge failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  run();
  const stopBeat = beatOn(ctx.clock, TRASH_PURGE_INTERVAL_MS, run);
  return {
    async stop() {
      stopBeat();
      await running;
    },
  };
}
