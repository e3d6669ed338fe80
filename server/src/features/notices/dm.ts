import type { Client } from 'discord.js';
import { type APIChannel, Routes } from 'discord-api-types/v10';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { BotHolder } from '../../platform/bot-holder.ts';
import { beatOn, type Clock } from '../../platform/feature.ts';
import { moveDm, pendingDms } from './repo.ts';
import type { NoticesTable } from './tables.ts';

/** How often the bot's holder looks for notices waiting for their direct message. */
export const NOTICE_DM_POLL_MS = 2_000;
/** A notice whose DM could not go out within this long is not sent any more (the portal still shows it). */
const STALE_MS = 60 * 60_000;
const BATCH = 20;

/** The DM's text: the notice and, with PUBLIC_URL, where to see it. */
export function dmContent(row: Pick<NoticesTable, 'text' | 'link'>, publicUrl: string | undefined): string {
  const where = row.link && publicUrl ? `\n${publicUrl}${row.link}` : '';
  return `${row.text}${where}`;
}

/**
 * Sends notices as Discord direct messages through the bot, on the instance that holds it only
 * (platform/bot-holder.ts): every instance records notices in the database, the holder sends them.
 * Each is moved pending → sending in one conditional update first, so no notice is sent twice; a
 * refusal (the member's privacy settings, 50007) or an outage marks it failed, never retried, so a
 * member never gets a burst of stale messages. Returns the stop.
 */
export function startDmSender(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  botHolder: BotHolder;
  publicUrl: string | undefined;
}): () => void {
  const { db, clock, log, botHolder } = deps;
  let client: Client | null = null;
  const offReady = botHolder.onBotReady((c) => {
    client = c;
  });
  const offGone = botHolder.onBotGone(() => {
    client = null;
  });
  const sendOne = async (bot: Client, row: NoticesTable) => {
    if (!(await moveDm(db, row.id, 'pending', 'sending'))) return;
    if (clock.now() - Date.parse(row.created_at) > STALE_MS) {
      await moveDm(db, row.id, 'sending', 'skipped');
      return;
    }
    try {
      const channel = (await bot.rest.post(Routes.userChannels(), {
        body: { recipient_id: row.user_id },
      })) as APIChannel;
      await bot.rest.post(Routes.channelMessages(channel.id), {
        body: { content: dmContent(row, deps.publicUrl), allowed_mentions: { parse: [] } },
      });
      await moveDm(db, row.id, 'sending', 'sent');
    } catch (err) {
      log.warn({ err, noticeId: row.id }, 'a notice could not be sent as a Discord direct message');
      await moveDm(db, row.id, 'sending', 'failed');
    }
  };
  const stopBeat = beatOn(clock, NOTICE_DM_POLL_MS, async () => {
    const bot = client;
    if (!bot || !botHolder.isHolder()) return;
    try {
      for (const row of await pendingDms(db, BATCH)) await sendOne(bot, row);
    } catch (err) {
      log.error({ err }, 'sending notices as direct messages failed');
    }
  });
  return () => {
    stopBeat();
    offReady();
    offGone();
  };
}
