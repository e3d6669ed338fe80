/** Pictionary tables (migration 005). Lists are stored as JSON text (portable across SQLite and PostgreSQL). */
export type PictionaryStatus = 'lobby' | 'in_progress' | 'finished';
export type PictionaryPhase = 'choosing' | 'drawing' | 'reveal';

export type PictionaryGamesTable = {
  id: string;
  status: PictionaryStatus;
  host_id: string;
  max_rounds: number;
  max_players: number;
  /** JSON list of bank ids. */
  word_banks: string;
  /** JSON list of lowercase words. */
  custom_words: string;
  round_number: number;
  /** Grows by one with every turn (0 in the lobby). */
  turn_number: number;
  turn_phase: PictionaryPhase | null;
  /** When the current phase is due to end (ISO-8601); any instance may advance a game past it. */
  turn_ends_at: string | null;
  drawer_id: string | null;
  /** The secret word. Only the presenter's drawer/reveal branch reads it (present.ts). */
  current_word: string | null;
  /** JSON list of the words already drawn in this game (never picked twice). */
  used_words: string;
  /** 1: Find Game never fills this lobby; players join it by its invite link (migration 040). */
  is_private: number;
  /** On a finished game: the lobby its players moved on to with Play again (migration 041). */
  next_game_id: string | null;
  /** JSON list of the words offered to the drawer while `choosing` (migration 043); null otherwise. */
  word_choices: string | null;
  /** Letter hints a turn, 0–3 (lobby setting). */
  hint_count: number;
  /** A turn's drawing time in seconds (lobby setting, migration 047). */
  draw_seconds: number;
  /** JSON list of the letter positions this turn's hints reveal, in order. */
  hint_order: string;
  /** How many of `hint_order` are revealed so far. */
  hints_shown: number;
  /** When the next hint is due (ISO-8601), null when none is left; the turn timer wakes for it too. */
  next_hint_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
};

/** The players of a game, in join order (`seq`); kept after the game finished for its ranking. */
export type PictionaryPlayersTable = {
  game_id: string;
  user_id: string;
  seq: number;
  score: number;
  joined_at: string;
  /** Set when the player left a game in progress (their join order still decides who draws next). */
  left_at: string | null;
  /** When the player last had the game open (a connected socket in its room, or a request); migration 040. */
  seen_at: string | null;
  /** 1 while a player of a running game has been gone longer than the grace: not a guesser, skipped as drawer. */
  away: number;
};

/** One row per player of an unfinished game (primary key user_id): one unfinished game per player. */
export type PictionarySeatsTable = {
  user_id: string;
  game_id: string;
};

export type PictionaryGuessesTable = {
  id: string;
  game_id: string;
  turn_number: number;
  user_id: string;
  guess: string;
  is_correct: number;
  points: number;
  created_at: string;
  /** 1 for a close guess or a wrong one containing the word: only its author sees it while the turn runs. */
  is_private: number;
};

/** The current turn's drawing, one row per batch, replayed in `seq` order. */
export type PictionaryStrokesTable = {
  id: string;
  game_id: string;
  turn_number: number;
  seq: number;
  /** JSON list of segments (`[]` for a clear). */
  segments: string;
  segment_count: number;
  /**
   * `stroke`, `clear` (a marker that counts nothing but starts the replay afresh), `fill` (one fill item) or
   * `undo` (removes the stroke `stroke_id`); fills and undos count PICTIONARY_FILL_COST / _UNDO_COST segments.
   */
  kind: 'stroke' | 'clear' | 'fill' | 'undo';
  /** The stroke this row belongs to (or, for an undo, removes); null on rows from before migration 045. */
  stroke_id: number | null;
};

/** A message of the chat among players who guessed (migration 044). */
export type PictionaryChatTable = {
  id: string;
  game_id: string;
  turn_number: number;
  user_id: string;
  text: string;
  created_at: string;
};

/** One vote of `voter_id` to kick `target_id` from a running game. */
export type PictionaryKickVotesTable = { game_id: string; target_id: string; voter_id: string };

/** Players removed from a game; they cannot join it again. */
export type PictionaryKickedTable = { game_id: string; user_id: string };

/** A single row (id 1) that join transactions lock first, one at a time. */
export type PictionaryMatchmakingTable = { id: number; turns: number };

export type PictionaryTables = {
  pictionary_games: PictionaryGamesTable;
  pictionary_players: PictionaryPlayersTable;
  pictionary_seats: PictionarySeatsTable;
  pictionary_guesses: PictionaryGuessesTable;
  pictionary_strokes: PictionaryStrokesTable;
  pictionary_matchmaking: PictionaryMatchmakingTable;
  pictionary_chat: PictionaryChatTable;
  pictionary_kick_votes: PictionaryKickVotesTable;
  pictionary_kicked: PictionaryKickedTable;
};
