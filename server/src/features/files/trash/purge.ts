import type { FastifyBaseLogger } from 'fastify';
import type { FilesContext } from '../context.ts';
import { purgeExpiredTrash } from './service.ts';

/** How often the trash is checked for items past their 30 days (and once at start). */
export const TRASH_PURGE_INTERVAL_MS = 60 * 60_000;

/** Purges expired trash at start and hourly; `stop()` waits for a run in progress. */
export function startTrashPurge(ctx: Pick<FilesContext, 'db' | 'garbage'>, log: FastifyBaseLogger) {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= purgeExpiredTrash(ctx)
      .then((n) => {
        if (n > 0) log.info({ purged: n }, 'trash: purged items past their retention');
      })
      .catch((err: unknown) => log.error({ err }, 'trash purge failed'))
      .finally(() => {
        running = null;
      });
  };
  run();
  const timer = setInterval(run, TRASH_PURGE_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
