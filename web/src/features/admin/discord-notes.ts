import {
  DiscordChannelsResponse,
  type DiscordNotesEvents,
  DiscordNotesResponse,
  type DiscordNotesSettings,
  type DiscordNotesState,
  DiscordTestNoteResponse,
  type DiscordTextChannel,
} from '@guildhall/common';
import { apiFetch } from '../../api/client.ts';

/** Channel notes (issue 44): the settings, the server's channels as the bot sees them, the test note. */
export async function fetchDiscordNotes(): Promise<DiscordNotesState> {
  return DiscordNotesResponse.parse(await apiFetch('/api/admin/discord-notes')).data;
}

export async function saveDiscordNotes(body: DiscordNotesSettings): Promise<DiscordNotesState> {
  return DiscordNotesResponse.parse(await apiFetch('/api/admin/discord-notes', { method: 'PUT', body })).data;
}

export async function fetchDiscordChannels(): Promise<{
  guildName: string | null;
  channels: DiscordTextChannel[];
  problem: string | null;
}> {
  return DiscordChannelsResponse.parse(await apiFetch('/api/admin/discord-notes/channels')).data;
}

export async function sendTestNote(): Promise<string> {
  return DiscordTestNoteResponse.parse(await apiFetch('/api/admin/discord-notes/test', { method: 'POST' }))
    .message;
}

/** Whether the form differs from what is saved. */
export function isChanged(draft: DiscordNotesSettings, saved: DiscordNotesSettings): boolean {
  if (draft.channelId !== saved.channelId) return true;
  return (Object.keys(saved.events) as (keyof DiscordNotesEvents)[]).some(
    (k) => draft.events[k] !== saved.events[k],
  );
}

/** Notes are on when a channel is chosen and at least one event posts. */
export function isOn(s: DiscordNotesSettings): boolean {
  return s.channelId !== null && Object.values(s.events).some(Boolean);
}

/**
 * The channel choices: the server's text channels, plus the saved one if the bot no longer sees it (so the
 * select never silently shows another channel than the one in force).
 */
export function channelChoices(
  channels: DiscordTextChannel[],
  savedId: string | null,
): { id: string; label: string }[] {
  const list = channels.map((c) => ({ id: c.id, label: `#${c.name}` }));
  if (savedId && !channels.some((c) => c.id === savedId))
    list.push({ id: savedId, label: `id ${savedId} (not visible to the bot)` });
  return list;
}
