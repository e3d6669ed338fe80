import module from 'node:module';
import { buildApp } from './app.ts';
import { isOAuthConfigured } from './config.ts';
import { resolveAccessCode } from './features/auth/index.ts';
import { isSetupMode } from './features/users/index.ts';
import { openConfigured } from './open-configured.ts';
import { accessCodeOriginMessage, listenUrl, startupBanner, startupWarnings } from './startup-banner.ts';
import { describeStartupFailure } from './startup-failure.ts';

async function main(): Promise<void> {
  const opened = await openConfigured();
  if (!opened) process.exit(1);
  const { config, db } = opened;
  const access = await resolveAccessCode(db, config.auth.accessCode, config.dataDir);
  const app = await buildApp({ config, db, accessCode: access.code });

  const setupMode = await isSetupMode(db);
  const oauthConfigured = isOAuthConfigured(config.auth);
  if (process.stdout.isTTY) {
    // For a person at a terminal; the JSON log lines stay as they are (and are all there is when piped).
    process.stdout.write(
      startupBanner({
        url: listenUrl(config.host, config.port, config.publicUrl),
        accessCode: access.code,
        accessCodeFile: access.file,
        setupMode,
        oauthConfigured,
      }),
    );
  }
  if (!oauthConfigured) {
    // The operator's message; members only see "not set up" on the login page.
    app.log.warn(
      'Discord OAuth not configured: the Discord sign-in button is disabled. Set DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and DISCORD_REDIRECT_URI.',
    );
  }
  app.log[access.origin === 'generated' ? 'warn' : 'info'](accessCodeOriginMessage(access));
  if (access.origin === 'generated') app.log.warn(`Access code: ${access.code}`);
  for (const warning of startupWarnings(config)) app.log.warn(warning);
  if (setupMode) {
    app.log.warn(
      'SETUP MODE: no admin exists, so the access-code demo identity acts as admin. ' +
        'Leave setup mode by setting ADMIN_DISCORD_IDS=<your Discord id> or running `npm run admin -- add <id> <name> --level admin`.',
    );
  }

  const shutdown = async (signal: string) => {
    app.log.info(
      `${signal} received, shutting down (transfers get ${config.shutdownGraceSeconds} s to finish)`,
    );
    // New requests get 503 at once (Fastify's return503OnClosing); requests in flight may finish within
    // the grace period, then their connections are cut so a stuck client cannot hold the exit.
    const grace = setTimeout(() => {
      app.log.warn('shutdown grace period over: closing the connections still open');
      app.server.closeAllConnections();
    }, config.shutdownGraceSeconds * 1000);
    grace.unref();
    await app.close();
    clearTimeout(grace);
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // Node writes its compile cache (main.ts) at a clean exit only; written now, a process that is later
  // killed (a crash, an OOM kill, a test harness's SIGKILL) still leaves the next start a warm cache
  // with everything start-up compiled. A few ms, once; nothing when the cache was already current.
  module.flushCompileCache?.();
}

main().catch((e: unknown) => {
  // A setting to fix or a dependency to start gets one line; anything else is a bug, with its stack.
  const known = describeStartupFailure(e);
  console.error(known ? `Guildhall could not start: ${known}` : e);
  process.exit(1);
});
