import type { DiscordNotesSettingsBody } from '@guildhall/common';
import { expect, type Locator, type Page } from '@playwright/test';
import { BASE_URL } from './env.ts';
import { BOT_CONTROL_URL, MUSIC_GUILD, TEXT_CHANNELS } from './music-env.ts';

/** What a member sees of the bot's answer to their command (issue 44). */
export type BotAnswer = {
  content: string;
  flags: number;
  buttons: { type: number; style: number; label: string; url?: string }[];
};

type InteractionState = {
  ack: number | null;
  original: Record<string, unknown> | null;
  followups: Record<string, unknown>[];
};

/**
 * A member of the e2e server runs a slash command in #general through the fake Discord (which dispatches
 * it to the portal's bot as INTERACTION_CREATE); resolves with what they see once the bot answered.
 */
export async function runSlash(
  member: { id: string; username: string },
  name: string,
  options: Record<string, string | number> = {},
): Promise<BotAnswer> {
  const res = await fetch(`${BOT_CONTROL_URL}/slash`, {
    method: 'POST',
    body: JSON.stringify({
      guildId: MUSIC_GUILD.id,
      channelId: TEXT_CHANNELS.general.id,
      userId: member.id,
      username: member.username,
      name,
      options,
    }),
  });
  if (!res.ok) throw new Error(`fake Discord control /slash: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  let shown: Record<string, unknown> | null = null;
  await expect
    .poll(async () => {
      const state = (await (await fetch(`${BOT_CONTROL_URL}/interactions/${id}`)).json()) as InteractionState;
      shown = state.original ?? state.followups.at(-1) ?? null;
      return shown !== null;
    })
    .toBe(true);
  const answer = shown as unknown as Record<string, unknown>;
  const rows = (answer.components ?? []) as { components: BotAnswer['buttons'] }[];
  return {
    content: String(answer.content ?? ''),
    flags: Number(answer.flags ?? 0),
    buttons: rows.flatMap((r) => r.components),
  };
}

/** The messages the bot posted in a channel of the e2e server (bodies as Discord received them). */
export async function botMessages(channelId: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${BOT_CONTROL_URL}/messages/${channelId}`);
  return ((await res.json()) as { messages: Record<string, unknown>[] }).messages;
}

/** Saves the channel notes settings through the admin API (a test's start or clean-up). */
export async function saveNotes(token: string, body: DiscordNotesSettingsBody): Promise<void> {
  const res = await fetch(`${BASE_URL}/api/admin/discord-notes`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`PUT /api/admin/discord-notes: ${res.status} ${await res.text()}`);
}

/** Page object: the Channel notes card of the admin panel. */
export class NotesCard {
  readonly card: Locator;
  constructor(page: Page) {
    this.card = page.getByTestId('discord-notes');
  }
  get channel(): Locator {
    return this.card.getByRole('combobox', { name: 'Channel' });
  }
  event(label: string): Locator {
    return this.card.getByRole('checkbox', { name: label });
  }
  get save(): Locator {
    return this.card.getByRole('button', { name: 'Save settings' });
  }
  get testNote(): Locator {
    return this.card.getByRole('button', { name: 'Send test note' });
  }
}
