import {
  DiscordChannelsResponse,
  DiscordNotesResponse,
  DiscordNotesSettingsBody,
  DiscordTestNoteResponse,
  DISCORD_NOTE_TEXTS as T,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fail } from '../../platform/errors.ts';
import type { FeatureContext } from '../../platform/feature.ts';
import { listTextChannels } from './channels.ts';
import type { NotePoster } from './poster.ts';
import { enqueue, loadSettings, saveSettings } from './service.ts';

const admin = { access: 'admin' } as const;

/** The bot, its server and the portal's address: what notes need at all. */
export type NotesConfig = {
  botToken?: string;
  apiUrl: string;
  guildId: string | null;
  publicUrl: string | null;
};

/** Why no note can be posted on this deployment, or null. */
export function notConfigured(c: NotesConfig): string | null {
  if (!c.botToken || !c.guildId) return T.noBot;
  if (!c.publicUrl) return T.noPublicUrl;
  return null;
}

/** The admin panel's Channel notes card: settings, the server's channels, and the test note. */
export function notesRoutes(ctx: FeatureContext<NotesConfig>, poster: NotePoster): FastifyPluginAsyncZod {
  const { db, config } = ctx;
  const state = async () => ({
    success: true as const,
    data: { settings: await loadSettings(db), notConfigured: notConfigured(config) },
  });
  return async (app) => {
    app.get(
      '/api/admin/discord-notes',
      { config: admin, schema: { response: { 200: DiscordNotesResponse } } },
      state,
    );

    app.put(
      '/api/admin/discord-notes',
      { config: admin, schema: { body: DiscordNotesSettingsBody, response: { 200: DiscordNotesResponse } } },
      async (req) => {
        await saveSettings(db, req.body);
        return state();
      },
    );

    app.get(
      '/api/admin/discord-notes/channels',
      { config: admin, schema: { response: { 200: DiscordChannelsResponse } } },
      async () => {
        const { botToken, guildId, apiUrl } = config;
        if (!botToken || !guildId)
          return { success: true as const, data: { guildName: null, channels: [], problem: T.noBot } };
        return { success: true as const, data: await listTextChannels({ token: botToken, apiUrl, guildId }) };
      },
    );

    // The test note goes out at once where the bot is held (its answer, or Discord's refusal, is the
    // admin's); elsewhere it is queued for the holder like any note.
    app.post(
      '/api/admin/discord-notes/test',
      { config: admin, schema: { response: { 200: DiscordTestNoteResponse } } },
      async (req) => {
        const missing = notConfigured(config);
        if (missing) throw fail('DISCORD_NOTES_NOT_CONFIGURED', missing);
        if (!(await loadSettings(db)).channelId) throw fail('BAD_REQUEST', T.noChannel);
        const note = { kind: 'test' as const, who: req.auth!.user.username };
        if (poster.canPost()) {
          await poster.postNow(note);
          return { success: true as const, message: T.testSent };
        }
        await enqueue(db, note, ctx.clock.now());
        return { success: true as const, message: T.testQueued };
      },
    );
  };
}
