import type { Db } from '../../db/index.ts';
import type { Clock } from '../../platform/feature.ts';
import { isoOn } from '../../platform/time.ts';
import type { PlayerSettings } from './player.ts';
import { DEFAULT_SETTINGS } from './present.ts';
import { findGuildSettings, saveGuildSettings } from './repo.ts';

/** A server's kept settings (volume, normalisation, loop, queue options), read and written by any instance. */
export type SettingsStore = {
  load(guildId: string): Promise<PlayerSettings>;
  save(guildId: string, settings: PlayerSettings): Promise<void>;
};

export function createSettingsStore(db: Db, clock: Clock): SettingsStore {
  return {
    async load(guildId) {
      const row = await findGuildSettings(db, guildId);
      if (!row) return { ...DEFAULT_SETTINGS, options: { ...DEFAULT_SETTINGS.options } };
      return {
        volume: Number(row.volume),
        normalize: Number(row.normalize) === 1,
        loop: row.loop,
        options: {
          fairQueue: Number(row.fair_queue) === 1,
          noDuplicates: Number(row.no_duplicates) === 1,
          autoplay: Number(row.autoplay) === 1,
        },
      };
    },
    save: (guildId, s) =>
      saveGuildSettings(db, {
        guild_id: guildId,
        volume: s.volume,
        normalize: s.normalize ? 1 : 0,
        loop: s.loop,
        fair_queue: s.options.fairQueue ? 1 : 0,
        no_duplicates: s.options.noDuplicates ? 1 : 0,
        autoplay: s.options.autoplay ? 1 : 0,
        updated_at: isoOn(clock),
      }),
  };
}
