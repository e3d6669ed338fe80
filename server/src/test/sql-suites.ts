/**
 * The server suites that run a second time on PostgreSQL (vitest.config.ts, project `postgres`): those
 * whose behaviour depends on the SQL the database runs. Every suite that reaches the database must be
 * listed here or in NOT_SQL with its reason; sql-suites.test.ts checks both lists against the tree.
 */
export const SQL_SUITES = [
  'server/src/authz-matrix.test.ts',
  'server/src/bad-input-sweep.test.ts',
  'server/src/cli/admin.test.ts',
  'server/src/cli/backup.test.ts',
  'server/src/cli/storage.test.ts',
  'server/src/db/migrations/012_chunk_crc.test.ts',
  'server/src/db/postgres.test.ts',
  'server/src/deployment/nginx.test.ts',
  'server/src/features/admin/audit.test.ts',
  'server/src/features/admin/lockout.test.ts',
  'server/src/features/admin/sessions-effect.test.ts',
  'server/src/features/admin/users-api.test.ts',
  'server/src/features/api-tokens/api-tokens.test.ts',
  'server/src/features/auth/access-code-shared-limit.test.ts',
  'server/src/features/auth/access-code-store.test.ts',
  'server/src/features/auth/auth.test.ts',
  'server/src/features/files/bad-input.test.ts',
  'server/src/features/files/crash.test.ts',
  'server/src/features/files/deceptive-names.test.ts',
  'server/src/features/files/download.test.ts',
  'server/src/features/files/fair-uploads.test.ts',
  'server/src/features/files/items.test.ts',
  'server/src/features/files/metrics.test.ts',
  'server/src/features/files/resumable/resumable.test.ts',
  'server/src/features/files/shares/share-url.test.ts',
  'server/src/features/files/shares/folder-shares.test.ts',
  'server/src/features/files/shares/shares.test.ts',
  'server/src/features/files/shares/share-edits.test.ts',
  'server/src/features/files/shares/unfurl.test.ts',
  'server/src/features/files/storage-limits/storage-limits.test.ts',
  'server/src/features/files/ticket-sessions.test.ts',
  'server/src/features/files/two-instances.test.ts',
  'server/src/features/files/upload-requests/upload-requests.test.ts',
  'server/src/features/files/upload.test.ts',
  'server/src/features/games/pictionary/concurrency.test.ts',
  'server/src/features/games/pictionary/realtime.test.ts',
  'server/src/features/games/pictionary/routes.test.ts',
  'server/src/features/games/pictionary/turns.test.ts',
  'server/src/features/games/tictactoe/claim.test.ts',
  'server/src/features/games/tictactoe/concurrency.test.ts',
  'server/src/features/games/tictactoe/multi-instance.test.ts',
  'server/src/features/games/tictactoe/realtime.test.ts',
  'server/src/features/games/tictactoe/routes.test.ts',
  'server/src/features/music/idle.test.ts',
  'server/src/features/music/lease.test.ts',
  'server/src/features/music/one-bot.test.ts',
  'server/src/features/music/failover-processes.test.ts',
  'server/src/features/music/routes.test.ts',
  'server/src/features/notices/notices.test.ts',
  'server/src/features/osint/search-api.test.ts',
  'server/src/features/roles/roles.test.ts',
  'server/src/features/roles/events.test.ts',
  'server/src/features/users/read-routes.test.ts',
  'server/src/platform/access.test.ts',
  'server/src/platform/garbage-hold.test.ts',
  'server/src/platform/observability/observability.test.ts',
  'server/src/platform/realtime/hub.test.ts',
  'server/src/platform/realtime/shutdown.test.ts',
  'server/src/features/files/download-limits.test.ts',
  'server/src/features/files/manager.test.ts',
  'server/src/features/files/storage-limits/admission.test.ts',
  'server/src/features/games/pictionary/fairness.test.ts',
  'server/src/features/games/pictionary/presence.test.ts',
  'server/src/features/games/pictionary/rooms.test.ts',
  'server/src/features/games/pictionary/skribbl.test.ts',
  'server/src/features/games/tictactoe/waiting.test.ts',
  'server/src/features/games/pictionary/drawing.test.ts',
  'server/src/features/games/tictactoe/invites.test.ts',
  'server/src/features/games/tictactoe/repo.test.ts',
  'server/src/features/osint/history.test.ts',
  'server/src/features/osint/self-check.test.ts',
  'server/src/features/music/playlist-input.test.ts',
  'server/src/features/music/playlist-caps.test.ts',
  'server/src/features/discord-notes/queue.test.ts',
  'server/src/features/music/fair-queue.test.ts',
  'server/src/features/music/history/history.test.ts',
  'server/src/features/music/fair-queue-two.test.ts',
  'server/src/test/template-db.test.ts',
];

/** Suites that reach the database but test something the database does not change. */
export const NOT_SQL: Record<string, string> = {
  'server/src/features/music/warm-decoders.test.ts':
    'warm ffmpegs through the process spawner on a loopback HTTP file; it borrows the music helpers’ chirp, no query',
  'server/src/features/music/requester.test.ts':
    "a song requester's name and avatar from a users row; no query",
  'server/src/platform/transfer/range-loopback.test.ts':
    'the loopback Range server and waitOn on a moved clock; no query',
  'server/src/features/osint/rules.test.ts': 'the risk and verdict rules as pure functions; no query',
  'server/src/deployment/container.test.ts':
    'the container image on its own SQLite (opt-in, run by .ci/container-test); it only borrows ffmpeg arguments',
  'server/src/platform/feature.test.ts': "a feature's config slice (it loads the config, runs no query)",
  'server/src/platform/lifecycle.test.ts': "the platform's services closing with the app",
  'server/src/features/files/discord-store.test.ts': 'the Discord store under 429s and expiring URLs',
  'server/src/features/files/stores-smoke.test.ts':
    'one pass per blob store; the SQL runs in the suites above',
  'server/src/features/files/store-chaos.test.ts': 'blob stores breaking while in use; admission runs above',
  'server/src/features/music/audio.test.ts': 'audio through the fake Discord voice gateway',
  'server/src/features/music/live-changes.test.ts':
    'live effects, equalizer, volume and loudness heard through the fake Discord voice gateway (no ffmpeg started)',
  'server/src/features/music/autoplay-miss.test.ts':
    "autoplay's pick and its reasons, with in-test sources and history (no database)",
  'server/src/features/roles/outage.test.ts':
    "music heard through the fake Discord voice during a Discord outage (the sync's SQL: roles.test.ts)",
  'server/src/features/music/slash.test.ts':
    "Discord interactions through the fake Discord; its one query (a member by Discord id) is auth's, proven on PostgreSQL by auth.test.ts",
  'server/src/features/music/slash-share.test.ts':
    '/share through the fake Discord; its queries (own files by name: the LIKE of files/search, proven by manager.test.ts; createShare) run on PostgreSQL in the files suites',
  'server/src/features/music/slash-games.test.ts':
    "/pictionary and /tictactoe through the fake Discord; their SQL is the games' own (seats, players, invites), proven on PostgreSQL by the games' suites",
  'server/src/features/music/slash-limits.test.ts':
    "Discord's 3 s and double-acknowledgement rules through the fake Discord, and a restart on SQLite",
  'server/src/features/discord-notes/notes.test.ts':
    'notes posted through the fake Discord; the queue and settings SQL runs on PostgreSQL in queue.test.ts',
  'server/src/features/music/soundcloud.test.ts': 'the SoundCloud source against its fake',
  'server/src/features/music/lyrics/lyrics.test.ts': 'LRC parsing and the LRCLIB client against its fake',
  'server/src/features/music/lyrics/lyrics-route.test.ts':
    'the lyrics route against the LRCLIB fake; the database only holds the library song',
  'server/src/features/music/youtube.test.ts': 'the YouTube source against its fake',
  'server/src/features/music/autoplay.test.ts':
    'autoplay through the fake Discord with real audio; the history SQL runs on PostgreSQL in history.test.ts, the folder listing is one equality query',
  'server/src/features/music/spotify/spotify.test.ts':
    'the Spotify links, matching and Web API client against its fake',
  'server/src/features/music/spotify/spotify-play.test.ts':
    'Spotify links through the fake Discord and the fakes; the database only holds sessions',
  'server/src/features/music/autoplay-sources.test.ts':
    "autoplay's picks from YouTube Music's radio and SoundCloud's related tracks through the fakes; the history SQL runs on PostgreSQL in history.test.ts",
  'server/src/features/music/spotify/match-sources.test.ts':
    'matching Spotify tracks against the YouTube Music, YouTube and SoundCloud fakes; no query',
  'server/src/features/osint/subdomains-kept.test.ts':
    "a configuration value cutting a domain report's list; stored reports run on PostgreSQL in history.test.ts",
  'server/src/features/osint/ssrf.test.ts': 'the outbound fetcher refusing private addresses',
  'server/src/platform/outbound/fetcher.test.ts': 'the outbound fetcher',
  'server/src/platform/rate-limit/outage.test.ts': 'request limits while Redis is down',
  'server/src/platform/rate-limit/redis-failure-limiter.test.ts': 'failure limits counted in Redis',
  'server/src/platform/rate-limit/redis-store.test.ts': 'request limits counted in Redis',
  'server/src/platform/rate-limit/shared-limits.test.ts': 'limits shared by two instances through Redis',
  'server/src/platform/realtime/redis-outage.test.ts': 'the realtime channel while Redis is down',
  'server/src/platform/realtime/socket-limits.test.ts': 'socket limits per account and address',
  'server/src/platform/static.test.ts': 'serving the built web app',
  'server/src/platform/trust-proxy.test.ts': 'client addresses behind proxies',
  'server/src/route-contract.test.ts': 'route declarations and the OpenAPI document',
  'server/src/chaos/database-redis.test.ts':
    'PostgreSQL and Redis outages: runs on its own schema whenever TEST_DATABASE_URL is set',
  'server/src/features/osint/chaos.test.ts': 'outside sources failing during a search',
  'server/src/features/osint/fair-share.test.ts': 'the outbound limiter sharing between members',
  'server/src/features/osint/wmn-fixture.test.ts': 'the shipped site list against its loopback fixture',
  'server/src/features/osint/restart.test.ts':
    'the server process restarted on a SQLite data dir; the history SQL runs in history.test',
  'server/src/platform/input-guard.test.ts': 'the request input guard',
  'server/src/platform/realtime/pending-connections.test.ts': 'sockets that never sign in',
  'server/src/startup-banner.test.ts': 'the start-up banner text',
  'server/src/features/music/audio-levels.test.ts': 'audio levels through the fake Discord voice gateway',
  'server/src/features/music/chaos.test.ts': 'the music sources and Discord failing during playback',
  'server/src/features/music/resume.test.ts':
    'one SQLite process restarting (several instances on PostgreSQL: one-bot.test.ts)',
};
