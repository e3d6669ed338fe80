import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as api from './api.ts';

const STORAGE_KEY = 'musicGuildId';

/**
 * The servers the bot is on and the one chosen: the user's last choice if still available, otherwise
 * the configured default server (portal-tools §9), otherwise the first.
 */
export function useGuildChoice() {
  const guilds = useQuery({ queryKey: ['music', 'guilds'], queryFn: api.fetchGuilds });
  const [chosen, setChosen] = useState<string | null>(() => localStorage.getItem(STORAGE_KEY));
  const list = guilds.data?.guilds ?? [];
  const fallback = guilds.data?.defaultGuildId ?? list[0]?.id ?? null;
  const guildId = chosen && list.some((g) => g.id === chosen) ? chosen : fallback;

  return {
    guilds: list,
    guildId: guilds.isSuccess ? guildId : null,
    isLoading: guilds.isLoading,
    error: guilds.error,
    choose: (id: string) => {
      localStorage.setItem(STORAGE_KEY, id);
      setChosen(id);
    },
  };
}
