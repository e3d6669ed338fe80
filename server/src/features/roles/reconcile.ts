import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { Clock } from '../../platform/feature.ts';
import { clearServerFaces } from '../users/index.ts';
import type { RolesConfig } from './config.ts';
import { isProblem, type LookupProblem, type ServerProfile } from './discord.ts';
import { findSettingsRow, listLinkedMembers, updateSettingsRow } from './repo.ts';
import {
  applyRun,
  canLook,
  type Effects,
  isExempt,
  type Looked,
  loadSettings,
  readerFor,
  recordProblem,
  rememberGuild,
  rememberRoles,
} from './service.ts';

/** While the sync is off or paused, how often it looks whether an admin switched it on. */
const IDLE_POLL_MS = 60_000;
/** Lookups of one run are spread out, at most this often (4 a second, far under Discord's limits). */
const MAX_SPACING_MS = 250;

export type Reconciler = {
  start(): void;
  /** Runs a pass now (after an admin saved the settings), instead of at the next interval. */
  kick(): void;
  stop(): Promise<void>;
  /** True while it waits on the clock (between lookups or runs): a test moves the clock only then. */
  isParked(): boolean;
  /** True while it waits for the next run (no run in progress). */
  isIdle(): boolean;
  /**
   * A gateway member event (GUILD_MEMBER_UPDATE with the member's full role list, or GUILD_MEMBER_REMOVE
   * as null): applied at once through the same code a run uses, on the bot holder only.
   */
  memberEvent(discordId: string, roles: string[] | null, profile?: ServerProfile): Promise<void>;
  /**
   * The gateway refused the Server Members intent (4014): a problem for the admins' banner until a session
   * has it (false: the bot's READY with the intent, which clears the banner at once).
   */
  intentRefused(refused: boolean): Promise<void>;
  /** Member events this instance applied (it held the bot when they came): a test counts them. */
  events(): number;
  /** Runs this instance made (applied or not): a test counts them. */
  runs(): number;
};

const INTENT_PROBLEM: LookupProblem = {
  code: 'MEMBER_INTENT_DISALLOWED',
  message:
    'ROLE_SYNC_MEMBER_EVENTS is on but Discord refused the Server Members intent (gateway close 4014): ' +
    'enable it in the developer portal (Bot → Privileged Gateway Intents); the bot then asks for it again at the ' +
    'next re-check. Until then roles follow the periodic re-check.',
};

/**
 * The periodic re-check: one run looks up every linked member, its lookups spread over at most half the
 * interval (at most 4 a second), and applies what it found at its end under the demotion brake; runs
 * follow each other so that each ends one interval after the previous one ended. Any lookup
 * that could not check (network, 5xx, 429, Missing Access, Unknown Guild) ends the run with no change
 * at all and a problem for the admins' banner; the next run tries again. All on the injected clock.
 */
export function createReconciler(o: {
  db: Db;
  config: RolesConfig;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The member's sockets hear of each change (effectsOf in service.ts). */
  effects: Effects;
  /** Only the instance holding the bot runs (one per deployment); the others skip their runs. */
  isHolder?: () => boolean;
  /** The refused intent is enabled in the developer portal now: the bot logs in again asking for it. */
  askIntentsAgain?: () => void;
}): Reconciler {
  const isHolder = o.isHolder ?? (() => true);
  let runCount = 0;
  let eventCount = 0;
  let intentProblem: LookupProblem | null = null;
  /**
   * What the application's flags last said of the refused intent. The bot is asked to log in again only
   * when they turn to enabled, so flags that say enabled while the gateway still refuses it cannot make
   * the bot reconnect (and the music pause) at every run.
   */
  let wasIntentEnabled = false;
  /**
   * Member events counted as they arrive, and the count at each member's last event: a run applies a
   * lookup only if no event of that member came after it (an event's role list is newer than a lookup
   * made minutes earlier in a long run, and must not be undone by it).
   */
  let eventSeq = 0;
  const lastEventOf = new Map<string, number>();
  /** Member events and runs apply one at a time, so an event never interleaves with a run's apply. */
  let applying: Promise<unknown> = Promise.resolve();
  const serially = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = applying.then(fn, fn);
    applying = next.catch(() => {});
    return next;
  };
  const { db, config, clock, log } = o;
  const { effects } = o;
  const now = effects.now;
  let timer: unknown = null;
  /** Ends the current wait early (stop, or a kick between runs). */
  let cancel: (() => void) | null = null;
  let isBetweenRuns = false;
  /** Settings saved (or the bot ready) since this run began: it stops and a new one starts at once. */
  let isKicked = false;
  let running: Promise<void> | null = null;
  let isStopping = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        timer = null;
        cancel = null;
        resolve();
      };
      timer = clock.setTimeout(done, ms);
      const handle = timer;
      cancel = () => {
        clock.clearTimeout(handle);
        done();
      };
    });

  async function loop(): Promise<void> {
    while (!isStopping) {
      const startedAt = clock.now();
      let waitMs = IDLE_POLL_MS;
      isKicked = false;
      try {
        const intervalMs = await runOnce();
        // The next run starts one interval minus this run's length after this one started, so it ENDS
        // (and applies) one interval after this one ended: a change seen by no lookup of this run is
        // applied within one interval of the member's last lookup.
        const tookMs = clock.now() - startedAt;
        if (intervalMs !== null) waitMs = Math.max(0, intervalMs - 2 * tookMs);
      } catch (err) {
        log.error({ err }, 'role sync: run failed');
      }
      if (isStopping) return;
      // A run still looking with the old settings (its spacing, its interval) gave way to a new one.
      if (isKicked) continue;
      isBetweenRuns = true;
      await sleep(waitMs);
      isBetweenRuns = false;
    }
  }

  /** One run; returns the interval to the next, or null when the sync is off (poll again later). */
  async function runOnce(): Promise<number | null> {
    const { settings, row, names } = await loadSettings(db, config);
    // Switched off (in the panel, or ROLE_SYNC=off at a restart): nobody shows a server face any more.
    if (!settings.enabled) await clearServerFaces(db);
    if (!settings.enabled || row?.paused === 1) return null;
    // Another instance holds the bot: it runs the reconcile, so each change is applied once.
    if (!isHolder()) return settings.intervalSeconds * 1000;
    runCount += 1;
    const intervalMs = settings.intervalSeconds * 1000;
    if (!canLook(settings, config)) {
      await recordProblem(
        db,
        {
          code: 'NOT_CONFIGURED',
          message: 'Role sync is on but DISCORD_BOT_TOKEN or the server id is not set.',
        },
        now(),
      );
      return intervalMs;
    }
    const reader = readerFor(config);
    const guild = await reader.guild(settings.guildId);
    if (isProblem(guild)) {
      log.warn({ problem: guild.code }, 'role sync: cannot read the server; no level changes');
      await recordProblem(db, guild, now());
      return intervalMs;
    }
    await rememberGuild(db, guild, now());
    if (intentProblem) await lookAtIntent(reader);
    // Discord answers again: the admins' banner goes now, not only once every member has been looked up
    // (a run over hundreds of members takes a while); a lookup failing below puts it back.
    await recordProblem(db, intentProblem, now());
    const members = (await listLinkedMembers(db)).filter((m) => !isExempt(config, m.user, m.sync));
    const spacing = Math.min(MAX_SPACING_MS, Math.floor(intervalMs / 2 / Math.max(1, members.length)));
    const looked: Looked[] = [];
    const lookedAtSeq = new Map<string, number>();
    for (const [i, m] of members.entries()) {
      if (i > 0) await sleep(spacing);
      if (isStopping || isKicked) return intervalMs;
      const seqBefore = eventSeq; // an event that comes while Discord answers is newer than the answer
      const verdict = await reader.member(settings.guildId, m.user.discord_id);
      if (verdict.kind === 'unknown') {
        log.warn({ problem: verdict.problem.code }, 'role sync: a lookup failed; this run changes nothing');
        await recordProblem(db, verdict.problem, now());
        return intervalMs;
      }
      lookedAtSeq.set(m.user.discord_id, seqBefore);
      looked.push(
        verdict.kind === 'member'
          ? { ...m, roles: verdict.roles, profile: verdict.profile }
          : { ...m, roles: null },
      );
    }
    const result = await serially(() => {
      const unchangedSince = looked.filter(
        (l) => (lastEventOf.get(l.user.discord_id) ?? 0) <= (lookedAtSeq.get(l.user.discord_id) ?? 0),
      );
      return applyLooked(unchangedSince, names);
    });
    if (!result) return intervalMs;
    if (result.changed || result.held) log.info(result, 'role sync: run applied');
    await recordProblem(db, intentProblem, now());
    await updateSettingsRow(db, { last_run_at: now() }, now());
    return intervalMs;
  }

  /** Stores what was looked up and applies it with the settings in force now (the same path for runs and events). */
  async function applyLooked(looked: Looked[], names: Awaited<ReturnType<typeof loadSettings>>['names']) {
    // The settings may have changed while the run looked: apply with the current ones.
    const fresh = await loadSettings(db, config);
    for (const l of looked) {
      await rememberRoles(db, l.user.discord_id, l.roles, now(), l.profile, fresh.settings.guildId);
    }
    if (!fresh.settings.enabled || fresh.row?.paused === 1) return null;
    // And each member as they are now (an event, an admin's edit or pin since the run began), not as
    // the run found them at its start; a member removed meanwhile is left out.
    const byId = new Map((await listLinkedMembers(db)).map((m) => [m.user.discord_id, m]));
    const current = looked.flatMap((l) => {
      const m = byId.get(l.user.discord_id);
      return m ? [{ ...l, user: m.user, sync: m.sync }] : [];
    });
    return applyRun(db, config, fresh.settings, { ...names, ...fresh.names }, current, effects);
  }

  /** After a 4014: has the admin enabled the intent since? Then the bot logs in again with it. */
  async function lookAtIntent(reader: ReturnType<typeof readerFor>): Promise<void> {
    const isEnabled = await reader.isMembersIntentEnabled();
    if (isEnabled === null) return; // could not check: ask again at the next run
    if (isEnabled && !wasIntentEnabled) {
      log.info('role sync: the Server Members intent is enabled now; the bot logs in again with it');
      o.askIntentsAgain?.();
    }
    wasIntentEnabled = isEnabled;
  }

  async function memberEvent(
    discordId: string,
    roles: string[] | null,
    profile?: ServerProfile,
  ): Promise<void> {
    if (isStopping || !isHolder()) return;
    eventSeq += 1;
    lastEventOf.set(discordId, eventSeq);
    const { settings, row, names } = await loadSettings(db, config);
    if (!settings.enabled || row?.paused === 1) return;
    const member = (await listLinkedMembers(db)).find((m) => m.user.discord_id === discordId);
    if (!member || isExempt(config, member.user, member.sync)) return;
    eventCount += 1;
    const result = await serially(() => applyLooked([{ ...member, roles, profile }], names));
    if (result?.changed || result?.held)
      log.info({ ...result, discordId }, 'role sync: member event applied');
  }

  return {
    memberEvent,
    async intentRefused(refused) {
      intentProblem = refused ? INTENT_PROBLEM : null;
      if (refused) await recordProblem(db, INTENT_PROBLEM, now());
      else if ((await findSettingsRow(db))?.problem_code === INTENT_PROBLEM.code)
        await recordProblem(db, null, now());
    },
    runs: () => runCount,
    events: () => eventCount,
    start() {
      running = loop();
    },
    kick() {
      // Between runs: the wait ends. During one: it stops at its next lookup, changing nothing, and a run
      // with the settings in force now starts at once (a run over hundreds of members with the old
      // interval's spacing took minutes, and a saved interval waited for it).
      isKicked = true;
      cancel?.();
    },
    async stop() {
      isStopping = true;
      cancel?.();
      await running;
    },
    isParked: () => timer !== null,
    isIdle: () => timer !== null && isBetweenRuns,
  };
}
