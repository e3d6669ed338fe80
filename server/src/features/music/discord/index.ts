import type { PlaybackStatus } from '@guildhall/common';
import type { Client } from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import type { OfferedCommand } from '../../../platform/bot-holder.ts';
import type { Clock } from '../../../platform/feature.ts';
import type { MusicCommands } from '../front.ts';
import { MemberLimits } from './limits.ts';
import type { NowPlaying } from './now-playing.ts';

/**
 * What answers Discord: loaded once the bot has logged in here (discord.js is loaded by then), never at
 * start-up, where it would load discord.js for every instance (issue 47's start-up bar).
 */
const loadParts = () =>
  Promise.all([import('./commands.ts'), import('./interactions.ts'), import('./now-playing.ts')]).then(
    ([commands, interactions, nowPlaying]) => ({
      commandBodies: commands.commandBodies,
      handleInteraction: interactions.handleInteraction,
      NowPlaying: nowPlaying.NowPlaying,
    }),
  );

export type DiscordSideOptions = {
  db: Db;
  music: MusicCommands;
  log: FastifyBaseLogger;
  publicUrl: string | null;
  /** The community's server (MUSIC_DEFAULT_GUILD_ID); without it, every server the bot is on. */
  guildId: string | null;
  deferAfterMs: () => number;
  /** The feature's clock (a share made by `/share` is dated by it). */
  clock: Clock;
  /** The commands other features offer through the bot (`/pictionary`, `/tictactoe`), read at each login. */
  offered: () => OfferedCommand[];
};

/**
 * The portal inside Discord (issue 44): slash commands, their answers, and the now-playing message with its
 * buttons. Attached to the bot only where it is logged in (the lease holder, or the one process), so only
 * that instance registers commands and answers interactions.
 */
export class DiscordSide {
  private nowPlaying: NowPlaying | null = null;
  private readonly o: DiscordSideOptions;
  private readonly limits = new MemberLimits();
  private client: Client | null = null;

  constructor(o: DiscordSideOptions) {
    this.o = o;
  }

  /**
   * The bot logged in here: its commands are bulk-overwritten for the community's server (so commands
   * no longer offered disappear) and its interactions answered from now on.
   */
  attach(client: Client): void {
    this.client = client;
    void loadParts().then(
      (parts) => {
        if (this.client !== client) return; // detached (or another login) meanwhile
        this.nowPlaying ??= new parts.NowPlaying(this.o.log);
        const nowPlaying = this.nowPlaying;
        nowPlaying.attach(client.rest);
        client.on('interactionCreate', (i) => {
          if (this.client !== client) return;
          void parts.handleInteraction({ ...this.o, limits: this.limits, nowPlaying }, i);
        });
        // In the background: a slow or refused registration must not hold up restoring the playback.
        void this.register(client, parts.commandBodies(this.o.offered().map((c) => c.name)));
      },
      (err: unknown) => this.o.log.error({ err }, 'music bot: the Discord side could not load'),
    );
  }

  private async register(client: Client, body: ReturnType<typeof import('./commands.ts').commandBodies>) {
    const guilds = this.o.guildId ? [this.o.guildId] : [...client.guilds.cache.keys()];
    for (const guildId of guilds) {
      try {
        await client.application?.commands.set(body, guildId);
        this.o.log.info({ guildId, commands: body.length }, 'music bot: slash commands registered');
      } catch (err) {
        // 50001 Missing Access: the bot was invited without the applications.commands scope.
        this.o.log.warn({ err, guildId }, 'music bot: could not register the slash commands');
      }
    }
  }

  /** The bot stopped here: nothing is answered or edited until it is attached again. */
  detach(): void {
    this.client = null;
    this.nowPlaying?.attach(null);
  }

  /** Every status the player publishes: the now-playing message follows it. */
  statusChanged(status: PlaybackStatus): void {
    if (this.client) this.nowPlaying?.update(status);
  }
}
