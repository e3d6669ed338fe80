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
  portal: { name: 'portal', description: 'A link to the portal page for this channel' },
  share: { name: 'share', description: 'Share one of your files: a link anyone can open' },
  pictionary: { name: 'pictionary', description: 'Open a Pictionary lobby and post its invite here' },
  tictactoe: { name: 'tictactoe', description: 'Open a tic-tac-toe room and post its invite here' },
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
  /** `/portal` from the bot's voice channel or where the now-playing message is: the music page. */
  portalMusic: 'The portal’s music page: the queue, search, playlists and lyrics.',
  join: 'Join',
  /** A command a feature of this deployment does not offer (its feature is not mounted). */
  unavailable: 'That command is not available on this portal.',
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

/** What a game command posts: its invite, with a Join button to the lobby's page (issue 44). */
export const DISCORD_GAME_TEXTS = {
  pictionaryInvite: (host: string) => `**${host}** opened a Pictionary lobby. Press Join to play.`,
  tictactoeInvite: (host: string) =>
    `**${host}** opened a tic-tac-toe room. The first to press Join plays O.`,
  /** The member's own game is already under way: where it is, for them alone. */
  inGame: 'You are already in a game: open it in the portal.',
} as const;

/**
 * What each command does and who may use it, as the web panel lists them (issue 44). The same order as
 * `DISCORD_COMMANDS`; `access` is the portal level the handler checks.
 */
export const DISCORD_COMMAND_HELP: {
  name: DiscordCommandName;
  usage: string;
  access: 'anyone' | 'member' | 'user';
  does: string;
}[] = [
  {
    name: 'play',
    usage: '/play <query or link>',
    access: 'user',
    does: 'Plays or queues a song: a YouTube, SoundCloud or library link, or a search (the first result). Suggestions come from the portal’s search. You must be in the bot’s voice channel.',
  },
  { name: 'queue', usage: '/queue', access: 'member', does: 'Shows the song playing and the next ten.' },
  {
    name: 'np',
    usage: '/np',
    access: 'member',
    does: 'Shows the song playing, its position and who asked for it.',
  },
  {
    name: 'skip',
    usage: '/skip',
    access: 'user',
    does: 'Skips the song, or starts a vote with a button when other listeners are in the channel (as on the web).',
  },
  { name: 'pause', usage: '/pause', access: 'user', does: 'Pauses the music.' },
  { name: 'resume', usage: '/resume', access: 'user', does: 'Resumes the music.' },
  { name: 'stop', usage: '/stop', access: 'user', does: 'Stops the music; the queue stays.' },
  { name: 'volume', usage: '/volume <percent>', access: 'user', does: 'Sets the volume, 0–200 %.' },
  {
    name: 'portal',
    usage: '/portal',
    access: 'anyone',
    does: 'A link to the portal: the music page from the bot’s voice or now-playing channel, the home page elsewhere. Only you see it.',
  },
  {
    name: 'share',
    usage: '/share <file>',
    access: 'user',
    does: 'Shares one of your files by a permanent public link, shown only to you. Suggestions are your own files.',
  },
  {
    name: 'pictionary',
    usage: '/pictionary',
    access: 'member',
    does: 'Opens a new Pictionary lobby that you host (or the one you are in) and posts its invite with a Join button.',
  },
  {
    name: 'tictactoe',
    usage: '/tictactoe',
    access: 'member',
    does: 'Opens a tic-tac-toe room with you as X and posts its invite; the first to press Join plays O.',
  },
];

/** The portal page of a game's invite: following it (after sign-in) seats the member in that lobby or room. */
export const GAME_INVITE_PATHS = {
  pictionary: (gameId: string) => `/minigames/pictionary?join=${encodeURIComponent(gameId)}`,
  tictactoe: (gameId: string) => `/minigames/tic-tac-toe?join=${encodeURIComponent(gameId)}`,
} as const;
