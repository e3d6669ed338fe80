/**
 * Pictionary rules and constants (portal-tools §4, §5, §9 and docs/minigames.md), shared by the server
 * (authoritative) and the web (rendering, input limits).
 */
export const PICTIONARY_LOBBY_POLL_MS = 10_000;
export const PICTIONARY_CANVAS = { width: 1000, height: 600 } as const;
export const PICTIONARY_ROUNDS = { min: 1, max: 10, default: 3 } as const;
export const PICTIONARY_PLAYERS = { min: 2, max: 8, default: 8 } as const;
export const PICTIONARY_BRUSH = { min: 1, max: 15, default: 5 } as const;
export const PICTIONARY_DEFAULT_BANK = 'general';
/**
 * A drawer's turn lasts at most this long by default (server-timed; the lobby's drawing time sets it); it ends
 * early once every guesser has guessed.
 */
export const PICTIONARY_TURN_MS = 80_000;
/**
 * The drawing time a turn gets (lobby setting, seconds, in steps of `step`), as skribbl.io lets a room choose:
 * short for quick rounds among friends who know each other's drawings, long for elaborate ones.
 */
export const PICTIONARY_DRAW_SECONDS = {
  min: 30,
  max: 180,
  step: 10,
  default: PICTIONARY_TURN_MS / 1000,
} as const;
/** Between turns the word is shown to everyone this long. */
export const PICTIONARY_REVEAL_MS = 4_000;
/**
 * At the start of a turn the drawer picks one of PICTIONARY_WORD_CHOICES words within this time, else the
 * server picks one of them at random; the 80 s drawing time starts once the word is chosen (issue 29).
 */
export const PICTIONARY_CHOOSE_MS = 15_000;
export const PICTIONARY_WORD_CHOICES = 3;
/** Letter hints a turn (lobby setting): one letter each, at evenly spaced moments of the drawing time. */
export const PICTIONARY_HINTS = { min: 0, max: 3, default: 2 } as const;
/** Chat among players who guessed (issue 29): message length and messages per member and minute. */
export const PICTIONARY_MAX_CHAT_LENGTH = 100;
export const PICTIONARY_CHAT_PER_MINUTE = 30;
/**
 * A player of an open lobby or a running game counts as gone once not seen this long (a connected socket in
 * the game's room is noted every PICTIONARY_PRESENCE_TICK_MS; so is every request). Gone from a lobby: dropped,
 * and the host role passes on. Gone from a running game: no longer a guesser, skipped as drawer (an absent
 * drawer's turn ends), seat and points kept for when they come back. 20 s plus the 5 s tick keeps a closed
 * tab noticed within 30 s.
 */
export const PICTIONARY_ABSENT_AFTER_MS = 20_000;
export const PICTIONARY_PRESENCE_TICK_MS = 5_000;
/** The drawer's client sends the strokes drawn so far this often while the pointer is down. */
export const PICTIONARY_STROKE_FLUSH_MS = 50;
/** Most segments in one batch (50 ms of drawing is a handful; this leaves room for a slow client). */
export const PICTIONARY_MAX_SEGMENTS_PER_BATCH = 500;
/**
 * Most segments a drawer may send in one turn, counting those later cleared (an 80 s turn of continuous
 * drawing at the screen's 2-unit point spacing stays under it). Clearing does not give the budget back, so
 * what a drawer can push to each watcher, and what a reload or late join replays, is bounded per turn
 * (≈ 1 MB of JSON at most).
 */
export const PICTIONARY_MAX_SEGMENTS_PER_TURN = 10_000;
/**
 * Drawing tools (issue 29). A fill and an undo count against the turn's segment budget like this many
 * segments: a fill repaints up to the whole canvas on every screen and an undo makes every screen replay the
 * drawing, so their number per turn is bounded too (at most 50 fills, 500 undos).
 */
export const PICTIONARY_FILL_COST = 200;
export const PICTIONARY_UNDO_COST = 20;
/** The four brush-size buttons beside the slider. */
export const PICTIONARY_BRUSH_PRESETS = [2, 5, 10, 15] as const;
/** The eraser paints the canvas's background colour (so a fill treats erased and blank alike). */
export const PICTIONARY_ERASER_COLOR = '#ffffff';
/** Stroke ids a drawer's screen may use; the server numbers batches sent without one above this. */
export const PICTIONARY_MAX_CLIENT_STROKE_ID = 1_000_000_000;
export const PICTIONARY_MAX_CUSTOM_WORDS = 200;
export const PICTIONARY_MAX_WORD_LENGTH = 40;
export const PICTIONARY_MAX_GUESS_LENGTH = 100;
/**
 * Guesses one player may make in one turn (one every 2 s for the whole turn). Counted per player, so one
 * griefer's flood cannot use up anyone else's guesses; a turn keeps at most 8 × 40 guesses.
 */
export const PICTIONARY_MAX_GUESSES_PER_PLAYER = 40;

/** The 8 quick colours (portal-tools §2): black, red, green, blue, yellow, magenta, cyan, orange. */
export const PICTIONARY_QUICK_COLORS = [
  '#000000',
  '#ff0000',
  '#00ff00',
  '#0000ff',
  '#ffff00',
  '#ff00ff',
  '#00ffff',
  '#ffa500',
] as const;

/** Points for the 1st, 2nd, 3rd correct guess of a turn; every later one scores the last. */
export const PICTIONARY_GUESS_POINTS = [10, 7, 5, 3] as const;
/** The drawer's points per correct guess. */
export const PICTIONARY_DRAWER_POINTS = 3;

/** Points for the correct guess that is the `previousCorrect + 1`-th of its turn. */
export function guessPoints(previousCorrect: number): number {
  const table = PICTIONARY_GUESS_POINTS;
  return table[Math.min(previousCorrect, table.length - 1)]!;
}

/** How guesses and words compare: trimmed, lowercased, inner whitespace collapsed. */
export function normalizeWord(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Custom words as the spec keeps them: trimmed, lowercased, empties and duplicates dropped (first kept).
 */
export function cleanCustomWords(words: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const w of words) {
    const n = normalizeWord(w);
    if (n) seen.add(n);
  }
  return [...seen];
}

/** The selected banks, or `general` when none is left (portal-tools §5). */
export function cleanWordBanks(banks: readonly string[]): string[] {
  const unique = [...new Set(banks)];
  return unique.length > 0 ? unique : [PICTIONARY_DEFAULT_BANK];
}

/** The word as guessers see it: each letter or digit a blank, spaces and punctuation kept. */
export function wordPattern(word: string): string {
  return word.replace(/[\p{L}\p{N}]/gu, '_');
}

/** Text with only its letters and digits, lowercased: "Is it a SNAKE?" → "isitasnake". */
export function squashText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * A wrong guess that gives the word away: it contains the word once case, punctuation and spaces are
 * ignored ("is it a snake?" for "snake"). Such a guess, like a close one, is shown to its author only.
 */
export function containsWord(guess: string, word: string): boolean {
  const w = squashText(word);
  return w.length > 0 && squashText(guess).includes(w);
}

/**
 * Control characters (C0, DEL, C1) and the bidirectional overrides and isolates, which would let a text
 * reorder or hide what others see. Refused in every game text (guesses, custom words).
 */
export const UNSAFE_TEXT_CHARS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/** A wrong guess one edit (insert, delete, replace, or swap of neighbours) away from a word of 3+ letters. */
export function isCloseGuess(guess: string, word: string): boolean {
  if (word.length < 3 || guess === word) return false;
  if (Math.abs(guess.length - word.length) > 1) return false;
  return editDistanceAtMostOne(guess, word);
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  if (a.length === b.length) {
    const diffs: number[] = [];
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diffs.push(i);
    if (diffs.length <= 1) return true;
    const [i, j] = diffs;
    return diffs.length === 2 && j === i! + 1 && a[i!] === b[j] && a[j] === b[i!];
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return short.slice(i) === long.slice(i + 1);
}

export const PICTIONARY_TEXTS = {
  title: 'Multiplayer Pictionary',
  findGame: 'Find Game',
  findingGame: 'Finding Game...',
  howItWorks: 'How it works',
  howItWorksSteps: [
    'Join a lobby: up to 8 players, the first one in is the host.',
    'The host picks the rounds, word categories and custom words, then starts the game.',
    'Each round every player draws once; everyone else guesses the word in the chat.',
    'Scoring: the first correct guess earns 10 points, the second 7, the third 5, others 3; the drawer gets 3 per correct guess.',
    'A turn lasts 80 seconds, or ends as soon as everyone has guessed. Most points after the last round wins!',
  ],
  waitingSlot: 'Waiting...',
  emptySlot: 'Empty slot',
  leaveLobby: 'Leave Lobby',
  leaveGame: 'Leave Game',
  settings: 'Game Settings',
  rounds: 'Rounds',
  maxPlayers: 'Max Players',
  wordCategories: 'Word Categories',
  customWords: 'Custom Words',
  customWordsPlaceholder: 'One word per line, or separated by commas',
  updateSettings: 'Update Settings',
  startGame: 'Start Game',
  needTwoPlayers: 'Need at least 2 players to start',
  onlyHost: 'Only the host can change settings',
  waitingForHost: 'Waiting for host to start the game...',
  host: 'Host',
  drawing: 'Drawing',
  guessing: 'Guessing',
  youreDrawing: "You're drawing!",
  watchAndGuess: 'Watch & Guess!',
  waitForTurn: 'Wait for your turn to guess',
  clearCanvas: 'Clear Canvas',
  guesses: 'Guesses',
  noGuesses: 'No guesses yet... Start guessing!',
  correctAnswer: 'Correct Answer!',
  guessPlaceholder: 'What are they drawing?',
  gameComplete: 'Game Complete!',
  youGuessedIt: 'You guessed the word!',
  theWordWas: 'The word was',
  // the spec's fallback errors (§8)
  joinFailed: 'Failed to join game',
  guessFailed: 'Failed to submit guess',
  settingsFailed: 'Failed to update settings',
  startFailed: 'Failed to start game',
  // server messages (our wording; the spec is silent)
  gameNotFound: 'Game not found',
  notAPlayer: 'You are not a player in this game',
  onlyHostSettings: 'Only the host can change settings',
  onlyHostStart: 'Only the host can start the game',
  notInLobby: 'The game has already started',
  notInProgress: 'The game is not in progress',
  notDrawer: 'Only the current drawer can draw',
  drawerCannotGuess: 'The drawer cannot guess',
  alreadyGuessed: 'You already guessed the word',
  turnOver: 'This turn is over; wait for the next one',
  tooFewPlayers: 'Need at least 2 players to start',
  maxPlayersBelowCount: 'Max players cannot be lower than the number of players in the lobby',
  unknownWordBank: (id: string) => `Unknown word bank: ${id}`,
  drawingFull: 'The drawing is full; clear the canvas to keep drawing',
  nothingToUndo: 'Nothing to undo',
  undo: 'Undo',
  brush: 'Brush',
  eraser: 'Eraser',
  fill: 'Fill',
  brushSize: (n: number) => `Brush size ${n}`,
  soundOn: 'Sound on',
  muteSounds: 'Mute sounds',
  soundOff: 'Sound off',
  tooManyGuesses: 'You have used all your guesses for this turn',
  controlCharacters: (field: string) => `${field} must not contain control characters`,
  onlyYou: 'only you can see this',
  away: 'Away',
  privateRoom: 'Private room',
  privateRoomHint: 'Find Game never fills it: players join with the invite link',
  inviteLink: 'Invite link',
  playAgain: 'Play again',
  findNewGame: 'Find New Game',
  turnOverPanel: 'Turn over',
  lobbyFull: 'This lobby is full',
  inAnotherGame: 'You are already in another game; leave it to join this one',
  notALobby: 'This game has already started',
  notFinished: 'The game is not finished yet',
  busy: 'The game changed while your request was being applied; please try again',
  guessedTheWord: (name: string) => `${name} guessed the word!`,
  close: (guess: string) => `'${guess}' is close!`,
  correct: 'Correct! You guessed the word!',
  wrong: 'Not quite, keep guessing!',
  // issue 29: word choice, hints, turn summary, chat among players who guessed, vote-kick
  chooseWord: 'Choose a word to draw',
  chooseHint: 'If the time runs out, one of them is picked for you',
  choosingWord: (name: string) => `${name} is choosing a word...`,
  notChoosing: 'The word has already been chosen',
  choosingNow: 'The drawer is still choosing a word',
  wordChosen: 'Word chosen',
  hints: 'Letter hints',
  hintsHelp: 'Letters revealed to guessers during a turn (never more than half the word)',
  drawTime: 'Drawing time',
  drawTimeValue: (seconds: number) => `${seconds} s`,
  drawTimeHelp: 'How long the drawer has to draw each word; hints come at even steps of it',
  turnSummary: 'Points this turn',
  noWordChosen: 'The drawer left before choosing a word',
  guessedChat: 'Chat with players who guessed',
  guessedChatPlaceholder: 'Message players who guessed',
  guessedChatOnly: 'Only the drawer and players who guessed the word can chat',
  notGuessedYet: 'Guess the word first to chat with the players who did',
  kick: 'Kick',
  voteKick: 'Vote to kick',
  kickVotes: (votes: number, needed: number) => `${votes}/${needed} votes to kick`,
  kicked: 'You were removed from the game',
  kickedName: (name: string) => `${name} was removed from the game`,
  cannotKickSelf: 'You cannot kick yourself',
  notInGame: 'That player is not in this game',
  alreadyVoted: 'You already voted to kick this player',
  onlyHostKick: 'Only the host can remove players from the lobby',
  kickedFromGame: 'You were removed from this game and cannot rejoin it',
} as const;
