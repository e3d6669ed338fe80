import type { Client } from 'discord.js';

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
};

export function createBotHolder(): BotHolder {
  let held: (() => boolean) | null = null;
  const intents = new Set<number>();
  const ready = new Set<(client: Client) => void>();
  const refused = new Set<() => void>();
  const gone = new Set<() => void>();
  const retry = new Set<() => void>();
  const on = <T>(set: Set<T>, l: T) => {
    set.add(l);
    return () => void set.delete(l);
  };
  return {
    isHolder: () => (held ? held() : true),
    leasedBy(h) {
      held = h;
    },
    wantIntents(list) {
      for (const i of list) intents.add(i);
    },
    wantedIntents: () => [...intents],
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
  };
}
