import { DISCORD_COMMANDS, DISCORD_OPTIONS, MUSIC_VOLUME_MAX, MUSIC_VOLUME_MIN } from '@guildhall/common';
import { type RESTPutAPIApplicationGuildCommandsJSONBody, SlashCommandBuilder } from 'discord.js';

const command = (c: { name: string; description: string }) =>
  new SlashCommandBuilder().setName(c.name).setDescription(c.description);

/**
 * Every slash command of the portal, as the body of one bulk overwrite
 * (`PUT applications/{app}/guilds/{guild}/commands`): commands not in it are removed by Discord.
 * Who may use a command is checked in its handler against the portal's level: per-role command
 * permissions cannot be set with a bot token.
 */
export function commandBodies(offered: string[] = []): RESTPutAPIApplicationGuildCommandsJSONBody {
  const c = DISCORD_COMMANDS;
  // The commands the games offer (platform/bot-holder.ts): registered only when their feature runs here.
  const others = [c.pictionary, c.tictactoe].filter((x) => offered.includes(x.name));
  return [
    command(c.play).addStringOption((o) =>
      o
        .setName(DISCORD_OPTIONS.query)
        .setDescription('A search, or a YouTube, SoundCloud or library link')
        .setRequired(true)
        .setMaxLength(500)
        .setAutocomplete(true),
    ),
    command(c.queue),
    command(c.np),
    command(c.skip),
    command(c.pause),
    command(c.resume),
    command(c.stop),
    command(c.volume).addIntegerOption((o) =>
      o
        .setName(DISCORD_OPTIONS.volume)
        .setDescription('0–200 %')
        .setRequired(true)
        .setMinValue(MUSIC_VOLUME_MIN)
        .setMaxValue(MUSIC_VOLUME_MAX),
    ),
    command(c.portal),
    command(c.share).addStringOption((o) =>
      o
        .setName(DISCORD_OPTIONS.file)
        .setDescription('One of your files (type part of its name)')
        .setRequired(true)
        .setMaxLength(255)
        .setAutocomplete(true),
    ),
    ...others.map(command),
  ].map((b) => b.toJSON());
}
