import type { AccessLevel } from '@guildhall/common';
import type { Client } from 'discord.js';

/**
 * A slash command another feature offers through the bot (issue 44: `/pictionary`, `/tictactoe`). The bot's
 * Discord side registers it, checks the caller's approval and `access` level and counts `perMinute` per
 * member, then runs it as that member; the feature's own service does the work with its own rules.
 */
export type OfferedCommand = {
  /** One of `DISCORD_COMMANDS` (common/). */
  name: string;
  access: 'login' | AccessLevel;
  perMinute: number;
  /** `member.username` is markdown-escaped: ready to show in a message. */
  run: (
    member: { discordId: string; username: string; level: AccessLevel },
    where: CommandPlace,
  ) => Promise<OfferedAnswer>;
};
export type CommandPlace = { guildId: string | null; channelId: string };
/**
 * What an offered command answers: posted in the channel with a Join link button to `path` (a portal
 * page), or, `private`, shown to the caller alone with an Open portal button to `path`.
 */
export type OfferedAnswer = { content: string; path: string; private?: boolean };

/**
 * Which instance holds the Discord bot, as one small signal every feature can read (docs/operations.md,
 * "One music bot"). The music feature owns the bot and its lease and fills this in; a feature that must act
 * once per deployment rather than once per instance (role sync's reconcile and member events, issue 43)
 * reads it. Without a lease (one SQLite process, no bot token, or music not mounted) this instance is the
 * holder.
 */
export type BotHolder = {
  /** True when this instance holds the bot's lease, or when there is no lease (one process). */
  isHolder(): boolean;
  /** The music feature on a shared database: this instance holds the bot only while `held()` says so. */
  leasedBy(held: () => boolean): void;
  /**
   * Gateway intents a feature asks the bot to log in with (discord.js GatewayIntentBits values), asked
   * in `setup`, read when the bot logs in. A privileged one may be refused (close 4014): see `intentsRefused`.
   */
  wantIntents(intents: number[]): void;
  wantedIntents(): number[];
  /** A feature offers a slash command (asked in `setup`); the bot's Discord side answers it. */
  offerCommand(command: OfferedCommand): void;
  offeredCommands(): OfferedCommand[];
  /** The music feature: the bot's gateway is ready (READY, or a resumed session) on this instance. */
  botReady(client: Client): void;
  /** The music feature: the gateway refused the wanted intents (4014); the bot runs without them. */
  intentsRefused(): void;
  /** The music feature: the bot logged out here (lease lost, stop). */
  botGone(): void;
  /**
   * A feature saw a refused intent enabled in the developer portal since (role sync reads the application's
   * flags): the bot logs in again asking for the wanted intents, so the refusal does not last until a restart.
   */
  retryIntents(): void;
  /** The music feature: logs the bot in again with the wanted intents when asked. Returns the unsubscribe. */
  onRetryIntents(listener: () => void): () => void;
  /** Called on every READY/resume of the bot on this instance, with its client. Returns the unsubscribe. */
  onBotReady(listener: (client: Client) => void): () => void;
  onIntentsRefused(listener: () => void): () => void;
  onBotGone(listener: () => void): () => void;
  /**
   * An action a feature runs once per deployment, on the holder (role sync's Check now), registered in
   * `setup` under a name. Returns the unsubscribe.
   */
  onHolderAsk(name: string, listener: () => void): () => void;
  /**
   * Runs `name`'s action on the holder: here when this instance holds the bot, else sent to the holder.
   * Resolves false when it could not reach one (a handover, or several instances without Redis).
   */
  askHolder(name: string): Promise<boolean>;
  /** The music feature (which owns forwarding between instances): how an ask reaches the holder. */
  relayAsks(relay: (name: string) => Promise<void>): void;
  /** The music feature, on the holder: an ask that came from another instance. */
  answerAsk(name: string): void;
};

export function createBotHolder(): BotHolder {
  let held: (() => boolean) | null = null;
  const intents = new Set<number>();
  const commands = new Map<string, OfferedCommand>();
  const ready = new Set<(client: Client) => void>();
  const refused = new Set<() => void>();
  const gone = new Set<() => void>();
  const retry = new Set<() => void>();
  const asks = new Map<string, () => void>();
  let relay: ((name: string) => Promise<void>) | null = null;
  const isHolder = () => (held ? held() : true);
  const on = <T>(set: Set<T>, l: T) => {
    set.add(l);
    return () => void set.delete(l);
  };
  return {
    isHolder,
    leasedBy(h) {
      held = h;
    },
    wantIntents(list) {
      for (const i of list) intents.add(i);
    },
    wantedIntents: () => [...intents],
    offerCommand(command) {
      commands.set(command.name, command);
    },
    offeredCommands: () => [...commands.values()],
    botReady(client) {
      for (const l of ready) l(client);
    },
    intentsRefused() {
      for (const l of refused) l();
    },
    botGone() {
      for (const l of gone) l();
    },
    retryIntents() {
      for (const l of retry) l();
    },
    onBotReady: (l) => on(ready, l),
    onIntentsRefused: (l) => on(refused, l),
    onBotGone: (l) => on(gone, l),
    onRetryIntents: (l) => on(retry, l),
    onHolderAsk(name, listener) {
      asks.set(name, listener);
      return () => void asks.delete(name);
    },
    async askHolder(name) {
      if (isHolder()) {
        asks.get(name)?.();
        return true;
      }
      if (!relay) return false;
      return relay(name).then(
        () => true,
        () => false,
      );
    },
    relayAsks(r) {
      relay = r;
    },
    answerAsk(name) {
      asks.get(name)?.();
    },
  };
}
