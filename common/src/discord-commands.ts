/**
 * The portal inside Discord (issue 44): slash command names, button custom ids and the texts the bot
 * answers with. The server builds and answers them; the tests and (later) the web panel read them here.
 */

/** The slash commands registered for the community's server (bulk overwrite at every bot start). */
export const DISCORD_COMMANDS = {
  play: {
    name: 'play',
    description: 'Play or queue a song: a search, or a YouTube, SoundCloud or library link',
  },
  queue: { name: 'queue', description: 'Show the queue' },
  np: { name: 'np', description: 'Show the song playing now' },
  skip: { name: 'skip', description: 'Skip the song (a vote unless you requested it or are a moderator)' },
  pause: { name: 'pause', description: 'Pause the music' },
  resume: { name: 'resume', description: 'Resume the music' },
  stop: { name: 'stop', description: 'Stop the music (the queue stays)' },
  volume: { name: 'volume', description: 'Set the volume (0–200 %)' },
  portal: { name: 'portal', description: 'Open the portal' },
  share: { name: 'share', description: 'Share one of your files: a link anyone can open' },
} as const;
export type DiscordCommandName = keyof typeof DISCORD_COMMANDS;

/** The option names of the commands that take one. */
export const DISCORD_OPTIONS = { query: 'query', volume: 'percent', file: 'file' } as const;

/** Discord's limits (developer docs): 3 s to acknowledge, 25 autocomplete choices, 100-character names. */
export const DISCORD_ACK_DEADLINE_MS = 3_000;
/** A command whose work is not done by then is deferred (type 5), well inside Discord's 3 s. */
export const DISCORD_DEFER_AFTER_MS = 1_500;
/** How long autocomplete waits for the outside platforms before answering with what it has. */
export const DISCORD_AUTOCOMPLETE_WAIT_MS = 2_000;
export const DISCORD_AUTOCOMPLETE_MAX = 25;
export const DISCORD_CHOICE_MAX_CHARS = 100;
/** Message flag: only the caller sees the message. */
export const DISCORD_EPHEMERAL = 64;

/**
 * The per-member limits of the music routes (per minute), which the commands count the same way:
 * controls (play, pause, skip…) and searches (autocomplete and /play with a search).
 */
export const MUSIC_CONTROLS_PER_MINUTE = 300;
export const MUSIC_SEARCHES_PER_MINUTE = 60;
export const MUSIC_READS_PER_MINUTE = 600;

/**
 * Buttons carry everything their handler needs in a versioned custom id (`gh1:music:<action>:<guildId>`),
 * so a button on a message posted before a restart still works: one router, no in-memory collectors.
 */
export const CUSTOM_ID_VERSION = 'gh1';
export const MUSIC_BUTTON_ACTIONS = ['toggle', 'skip', 'stop', 'loop', 'voldown', 'volup'] as const;
export type MusicButtonAction = (typeof MUSIC_BUTTON_ACTIONS)[number];
/** What one volume button changes, in percent. */
export const MUSIC_VOLUME_STEP = 10;

export function musicButtonId(action: MusicButtonAction, guildId: string): string {
  return `${CUSTOM_ID_VERSION}:music:${action}:${guildId}`;
}

/** The action and guild of a music button, or null for any other (or older-version) custom id. */
export function parseMusicButtonId(customId: string): { action: MusicButtonAction; guildId: string } | null {
  const m = /^gh1:music:([a-z]+):(\d{1,20})$/.exec(customId);
  if (!m) return null;
  const action = MUSIC_BUTTON_ACTIONS.find((a) => a === m[1]);
  return action && m[2] ? { action, guildId: m[2] } : null;
}

export const DISCORD_TEXTS = {
  openPortal: 'Open portal',
  portal: 'The portal: music, files, games and more.',
  nothingPlaying: 'Nothing is playing.',
  queueEmpty: 'The queue is empty.',
  nowPlayingTitle: 'Now playing',
  noResults: 'No song matches that search.',
  searchSlow: 'Search is slow right now, try again.',
  notInServer: 'Use this command in the community’s server.',
  failed: 'That did not work. Try again in a moment.',
  voteSkip: 'Vote to skip',
  buttons: {
    pause: 'Pause',
    resume: 'Resume',
    skip: 'Skip',
    stop: 'Stop',
    loop: 'Loop',
    voldown: 'Vol −',
    volup: 'Vol +',
  },
} as const;

/** `/share <file>` (issue 44): the member's own files, shared by a permanent public link. */
export const DISCORD_SHARE_TEXTS = {
  shared: (name: string, url: string) => `Share link for **${name}**: ${url}`,
  noPublicUrl: 'The portal’s address (PUBLIC_URL) is not set, so no link can be made here.',
} as const;
