import { z } from 'zod';
import {
  PICTIONARY_BRUSH,
  PICTIONARY_CANVAS,
  PICTIONARY_DRAW_SECONDS,
  PICTIONARY_HINTS,
  PICTIONARY_MAX_CHAT_LENGTH,
  PICTIONARY_MAX_CLIENT_STROKE_ID,
  PICTIONARY_MAX_CUSTOM_WORDS,
  PICTIONARY_MAX_GUESS_LENGTH,
  PICTIONARY_MAX_SEGMENTS_PER_BATCH,
  PICTIONARY_MAX_WORD_LENGTH,
  PICTIONARY_PLAYERS,
  PICTIONARY_ROUNDS,
  PICTIONARY_TEXTS,
  PICTIONARY_WORD_CHOICES,
  UNSAFE_TEXT_CHARS,
} from './pictionary.ts';

const safeText = (s: string) => !UNSAFE_TEXT_CHARS.test(s);
const unsafeMessage = (field: string) => ({ error: PICTIONARY_TEXTS.controlCharacters(field) });

/** The realtime rooms and events of one Pictionary game (docs/minigames.md). */
export const PICTIONARY_ROOM_TYPE = 'pictionary';
export const PICTIONARY_EVENTS = {
  /** server → each player's own `user:<id>` room: `{game}` as that player may see it (never the word to a guesser). */
  state: 'pictionary:state',
  /** server → the game room except the drawer: `{gameId, turnNumber, segments}` as the drawer draws. */
  strokes: 'pictionary:strokes',
  /** server → the game room: `{gameId, turnNumber}` when the drawer cleared the canvas. */
  clear: 'pictionary:clear',
  /** server → the game room except the drawer: `{gameId, turnNumber, strokeId}` when the drawer undid that stroke. */
  undo: 'pictionary:undo',
  /**
   * client → server: `{gameId, strokeData}`, the same as POST /:id/draw but over the socket the drawer already
   * has open (no HTTP request per batch); acked with `{ok: true, turnNumber}` or `{ok: false, error, code}`.
   */
  draw: 'pictionary:draw',
} as const;
export function pictionaryRoom(gameId: string): string {
  return `${PICTIONARY_ROOM_TYPE}:${gameId}`;
}

const intIn = (name: string, min: number, max: number) => {
  const msg = `${name} must be a whole number from ${min} to ${max}`;
  return z
    .number({
      error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a number`),
    })
    .int({ error: msg })
    .min(min, { error: msg })
    .max(max, { error: msg });
};
const coord = (name: string, max: number) => {
  const msg = `${name} must be a number from 0 to ${max}`;
  return z
    .number({ error: msg })
    .min(0, { error: msg })
    .max(max, { error: msg })
    .refine(Number.isFinite, { error: msg });
};
const Point = z.object(
  { x: coord('x', PICTIONARY_CANVAS.width), y: coord('y', PICTIONARY_CANVAS.height) },
  { error: 'A point must be {x, y}' },
);

/** One line segment of a drawing (portal-tools §3): canvas coordinates in 1000×600. */
export const PictionarySegment = z.object(
  {
    type: z.literal('line', { error: 'segment type must be "line"' }),
    from: Point,
    to: Point,
    color: z.string({ error: 'color must be a string' }).regex(/^#[0-9a-fA-F]{6}$/, {
      error: 'color must look like #rrggbb',
    }),
    size: intIn('size', PICTIONARY_BRUSH.min, PICTIONARY_BRUSH.max),
    timestamp: z.number({ error: 'timestamp must be a number' }).refine(Number.isFinite, {
      error: 'timestamp must be a number',
    }),
    /** The stroke it belongs to (what undo removes); set by the server on replays, ignored in a batch. */
    strokeId: z.number().int().optional(),
  },
  { error: 'A segment must be an object' },
);
export type PictionarySegment = z.infer<typeof PictionarySegment>;

const colorHex = z.string({ error: 'color must be a string' }).regex(/^#[0-9a-fA-F]{6}$/, {
  error: 'color must look like #rrggbb',
});
/** A stroke's id as the drawer's screen numbers them (1, 2, 3 … within a turn). */
const clientStrokeId = intIn('strokeId', 1, PICTIONARY_MAX_CLIENT_STROKE_ID);

/**
 * Beyond the spec (issue 29): a flood fill at a point with a colour (docs/minigames.md "Fill rule"); in a
 * drawing it is one item, an undoable stroke of its own.
 */
export const PictionaryFill = z.object({
  type: z.literal('fill'),
  x: coord('x', PICTIONARY_CANVAS.width),
  y: coord('y', PICTIONARY_CANVAS.height),
  color: colorHex,
  timestamp: z.number({ error: 'timestamp must be a number' }).refine(Number.isFinite, {
    error: 'timestamp must be a number',
  }),
  strokeId: z.number().int().optional(),
});
export type PictionaryFill = z.infer<typeof PictionaryFill>;

/** One item of a drawing, replayed in order: a line segment (the spec's) or a fill. */
export const PictionaryDrawItem = z.discriminatedUnion('type', [PictionarySegment, PictionaryFill]);
export type PictionaryDrawItem = z.infer<typeof PictionaryDrawItem>;

/** A drawing stroke batch (portal-tools §3, §7): what the drawer sends every ≈50 ms and on pointer-up. */
export const PictionaryStrokeBatch = z.object({
  type: z.literal('stroke_batch', { error: 'strokeData.type must be "stroke_batch" or "clear"' }),
  segments: z
    .array(PictionarySegment, { error: 'segments must be a list' })
    .min(1, { error: 'segments must not be empty' })
    .max(PICTIONARY_MAX_SEGMENTS_PER_BATCH, {
      error: `A batch holds at most ${PICTIONARY_MAX_SEGMENTS_PER_BATCH} segments`,
    }),
  timestamp: z.number({ error: 'timestamp must be a number' }),
  /**
   * Beyond the spec: the stroke these segments belong to (a stroke spans the batches from pointer-down to
   * pointer-up, re-entries included). Without it each batch is a stroke of its own for undo.
   */
  strokeId: clientStrokeId.optional(),
});
export type PictionaryStrokeBatch = z.infer<typeof PictionaryStrokeBatch>;

/** Beyond the spec: "Clear Canvas" goes through the same draw call, as a batch of its own kind. */
export const PictionaryClearBatch = z.object({
  type: z.literal('clear'),
  timestamp: z.number({ error: 'timestamp must be a number' }),
});

/** Beyond the spec: the fill bucket, a stroke of its own (undo removes it). */
export const PictionaryFillBatch = PictionaryFill.extend({ strokeId: clientStrokeId });
/** Beyond the spec: undo the drawer's last stroke (or fill) still on the canvas since the last clear. */
export const PictionaryUndoBatch = z.object({
  type: z.literal('undo'),
  timestamp: z.number({ error: 'timestamp must be a number' }),
});

export const PictionaryDrawBody = z.object(
  {
    strokeData: z.discriminatedUnion(
      'type',
      [PictionaryStrokeBatch, PictionaryClearBatch, PictionaryFillBatch, PictionaryUndoBatch],
      { error: 'strokeData must be a stroke_batch, a clear, a fill or an undo' },
    ),
  },
  { error: 'Request body must be a JSON object with strokeData' },
);
export type PictionaryDrawBody = z.infer<typeof PictionaryDrawBody>;

/** The socket form of the draw call: which game, and the batch. */
export const PictionarySocketDraw = PictionaryDrawBody.extend({
  gameId: z.uuid({ error: 'Game id must be a UUID' }),
});
/** What a draw answers on the socket (`CLIENT_EVENTS` in realtime-events.ts), as POST /:id/draw does. */
export const PictionaryDrawResult = z.object({ turnNumber: z.number().int(), message: z.string() });
export type PictionaryDrawResult = z.infer<typeof PictionaryDrawResult>;

export const PictionaryGuessBody = z.object(
  {
    guess: z
      .string({ error: 'guess must be a string' })
      .trim()
      .min(1, { error: 'guess must not be empty' })
      .max(PICTIONARY_MAX_GUESS_LENGTH, {
        error: `guess must be at most ${PICTIONARY_MAX_GUESS_LENGTH} characters`,
      })
      .refine(safeText, unsafeMessage('guess')),
  },
  { error: 'Request body must be a JSON object with a guess' },
);

/** The drawer's pick of the offered words (issue 29), by its place in `wordChoices`. */
export const PictionaryChooseBody = z.object(
  { choice: intIn('choice', 0, PICTIONARY_WORD_CHOICES - 1) },
  { error: 'Request body must be a JSON object with a choice' },
);

/** A message to the players who already guessed (issue 29): the same text rules as a guess. */
export const PictionaryChatBody = z.object(
  {
    text: z
      .string({ error: 'text must be a string' })
      .trim()
      .min(1, { error: 'text must not be empty' })
      .max(PICTIONARY_MAX_CHAT_LENGTH, {
        error: `text must be at most ${PICTIONARY_MAX_CHAT_LENGTH} characters`,
      })
      .refine(safeText, unsafeMessage('text')),
  },
  { error: 'Request body must be a JSON object with a text' },
);

/** A kick: the host's in the lobby, a vote in a running game (issue 29). */
export const PictionaryKickBody = z.object(
  {
    playerId: z
      .string({ error: 'playerId must be a string' })
      .min(1, { error: 'playerId must not be empty' })
      .max(64, { error: 'playerId is at most 64 characters' }),
  },
  { error: 'Request body must be a JSON object with a playerId' },
);

const bankId = z.string({ error: 'word bank ids must be strings' }).regex(/^[a-z][a-z0-9-]{0,31}$/, {
  error: 'word bank ids are lowercase words',
});
export const PictionarySettingsBody = z.object(
  {
    maxRounds: intIn('maxRounds', PICTIONARY_ROUNDS.min, PICTIONARY_ROUNDS.max),
    maxPlayers: intIn('maxPlayers', PICTIONARY_PLAYERS.min, PICTIONARY_PLAYERS.max),
    wordBanks: z
      .array(bankId, { error: 'wordBanks must be a list' })
      .max(32, { error: 'Too many word banks' }),
    customWords: z
      .array(
        z
          .string({ error: 'custom words must be strings' })
          .max(PICTIONARY_MAX_WORD_LENGTH, {
            error: `custom words are at most ${PICTIONARY_MAX_WORD_LENGTH} characters`,
          })
          .refine(safeText, unsafeMessage('custom words')),
        { error: 'customWords must be a list' },
      )
      .max(PICTIONARY_MAX_CUSTOM_WORDS, { error: `At most ${PICTIONARY_MAX_CUSTOM_WORDS} custom words` }),
    /** Beyond the spec: a private lobby is never filled by Find Game; players join it by its invite link. */
    isPrivate: z.boolean({ error: 'isPrivate must be true or false' }).optional(),
    /** Beyond the spec (issue 29): letter hints a turn, 0–3; left out: unchanged. */
    hints: intIn('hints', PICTIONARY_HINTS.min, PICTIONARY_HINTS.max).optional(),
    /** Beyond the spec: the drawing time of a turn in seconds (30–180, in steps of 10); left out: unchanged. */
    drawSeconds: intIn('drawSeconds', PICTIONARY_DRAW_SECONDS.min, PICTIONARY_DRAW_SECONDS.max)
      .refine((v) => v % PICTIONARY_DRAW_SECONDS.step === 0, {
        error: `drawSeconds must be a multiple of ${PICTIONARY_DRAW_SECONDS.step}`,
      })
      .optional(),
  },
  { error: 'Request body must be a JSON object with maxRounds, maxPlayers, wordBanks and customWords' },
);
export type PictionarySettingsBody = z.infer<typeof PictionarySettingsBody>;

export const PictionaryGameParams = z.object({ id: z.uuid({ error: 'Game id must be a UUID' }) });

export const PictionaryPlayer = z.object({ id: z.string(), username: z.string() });
export type PictionaryPlayer = z.infer<typeof PictionaryPlayer>;

/**
 * A guess of the current turn. `guess` is null for another player's correct guess while the turn runs:
 * the panel shows "{name} guessed the word!" instead of the word.
 */
export const PictionaryGuess = z.object({
  playerId: z.string(),
  playerUsername: z.string(),
  guess: z.string().nullable(),
  isCorrect: z.boolean(),
  points: z.number().int(),
  /**
   * A close guess, or a wrong one that contains the word: while the turn runs only its author receives it
   * (everyone else's list leaves it out), marked so the author's screen can say so.
   */
  isPrivate: z.boolean(),
});
export type PictionaryGuess = z.infer<typeof PictionaryGuess>;

/**
 * The game as ONE player may see it (portal-tools §3 plus the turn clock). `currentWord` is the word for
 * the drawer, and for everyone once the turn is over (reveal) or the game finished; null for a guesser
 * while the turn runs. `customWords` reach the host in the lobby only (others get the count).
 * `drawingData` (the turn's drawing, for replay) comes with reads and the room's snapshot, not with pushes.
 */
export const PictionaryGame = z.object({
  id: z.string(),
  status: z.enum(['lobby', 'in_progress', 'finished']),
  hostId: z.string(),
  players: z.array(PictionaryPlayer),
  maxRounds: z.number().int(),
  maxPlayers: z.number().int(),
  wordBanks: z.array(z.string()),
  customWords: z.array(z.string()),
  customWordCount: z.number().int(),
  currentDrawer: PictionaryPlayer.nullable(),
  currentWord: z.string().nullable(),
  /** The word with each letter as `_` (spaces and hyphens kept), for guessers; letters revealed by hints shown. */
  wordPattern: z.string().nullable(),
  roundNumber: z.number().int(),
  playerScores: z.record(z.string(), z.number().int()),
  guesses: z.array(PictionaryGuess),
  /** The turn's drawing since its last clear, undone strokes left out: segments (the spec's) and fills. */
  drawingData: z.array(PictionaryDrawItem).optional(),
  /** Increases with every turn; strokes and clears name the turn they belong to. */
  turnNumber: z.number().int(),
  /**
   * `choosing` while the drawer picks a word (issue 29), `drawing` while the drawer draws, `reveal` while the
   * word is shown between turns.
   */
  turnPhase: z.enum(['choosing', 'drawing', 'reveal']).nullable(),
  /** The words offered to the drawer, to the drawer alone and only while choosing; null for everyone else. */
  wordChoices: z.array(z.string()).nullable(),
  /** The lobby setting: letter hints a turn (0–3). `wordPattern` shows the letters revealed so far. */
  hints: z.number().int(),
  /** The lobby setting: a turn's drawing time in seconds. */
  drawSeconds: z.number().int(),
  /** During the reveal: the points each player gained this turn (0 for those who gained none), best first. */
  turnSummary: z
    .array(z.object({ playerId: z.string(), playerUsername: z.string(), points: z.number().int() }))
    .nullable(),
  /**
   * This turn's chat among players who guessed: only the drawer and the players who guessed the word get it
   * (empty for everyone else).
   */
  chat: z.array(z.object({ playerId: z.string(), playerUsername: z.string(), text: z.string() })),
  /** Running game: the players others voted to kick, with votes and the votes needed (majority of the rest). */
  kickVotes: z.array(
    z.object({ playerId: z.string(), votes: z.number().int(), needed: z.number().int(), byMe: z.boolean() }),
  ),
  turnEndsAt: z.string().nullable(),
  /** The server's clock when this was produced, so a client with a wrong clock still counts down right. */
  serverTime: z.string(),
  /**
   * Players of a running game who have been gone longer than the grace (PICTIONARY_ABSENT_AFTER_MS): they keep
   * their seat and points, but do not count as guessers and are skipped as drawers until they come back.
   */
  awayIds: z.array(z.string()),
  /** A private lobby: Find Game never fills it; players join by the invite link (`/minigames/pictionary?join=<id>`). */
  isPrivate: z.boolean(),
  /** On a finished game: the lobby its players moved on to with Play again. */
  nextGameId: z.string().nullable(),
  /** Whether the viewer has guessed this turn's word. */
  hasGuessed: z.boolean(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PictionaryGame = z.infer<typeof PictionaryGame>;

/** The spec's envelope {success, game, message}. */
export const PictionaryResponse = z.object({
  success: z.literal(true),
  game: PictionaryGame,
  message: z.string(),
});
export type PictionaryResponse = z.infer<typeof PictionaryResponse>;

export const PictionaryCurrentResponse = z.object({
  success: z.literal(true),
  game: PictionaryGame.nullable(),
  message: z.string(),
});

export const PictionaryGuessResponse = PictionaryResponse.extend({ isCorrect: z.boolean() });
export type PictionaryGuessResponse = z.infer<typeof PictionaryGuessResponse>;

/** Leaving answers with the game as it was left (for a deleted lobby: null). */
export const PictionaryLeaveResponse = PictionaryCurrentResponse;

/** POST /draw answers small: nothing the drawer needs back but the turn it landed in. */
export const PictionaryDrawResponse = z.object({
  success: z.literal(true),
  turnNumber: z.number().int(),
  message: z.string(),
});

export const PictionaryWordBank = z.object({ id: z.string(), name: z.string(), count: z.number().int() });
export type PictionaryWordBank = z.infer<typeof PictionaryWordBank>;
export const PictionaryWordBanksResponse = z.object({
  success: z.literal(true),
  wordBanks: z.array(PictionaryWordBank),
});

export const PictionaryStatePush = z.object({ game: PictionaryGame });
export const PictionaryStrokesPush = z.object({
  gameId: z.string(),
  turnNumber: z.number().int(),
  /** Segments of a batch, or one fill (beyond the spec). */
  segments: z.array(PictionaryDrawItem),
  /** The stroke they belong to (for a later undo). */
  strokeId: z.number().int().optional(),
});
export type PictionaryStrokesPush = z.infer<typeof PictionaryStrokesPush>;
export const PictionaryUndoPush = z.object({
  gameId: z.string(),
  turnNumber: z.number().int(),
  strokeId: z.number().int(),
});
export type PictionaryUndoPush = z.infer<typeof PictionaryUndoPush>;
export const PictionaryClearPush = z.object({ gameId: z.string(), turnNumber: z.number().int() });
