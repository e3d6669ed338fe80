/**
 * The error-code catalogue: every `code` an API error envelope `{ success: false, error, code }` can
 * carry, with the one HTTP status it always comes with and what it means. The server throws by code
 * (`fail('NOT_FOUND', 'Game not found')`) and the status follows from here, so one code can never be
 * two statuses; the web matches these codes, never the message text. The generic codes (BAD_REQUEST,
 * NOT_FOUND, …) are for answers with nothing more specific to say; the message still says what.
 */
export const ERROR_CODES = {
  // Generic, one per status.
  BAD_REQUEST: { status: 400, description: 'the request is wrong; the message says how' },
  VALIDATION: { status: 400, description: 'a field of the body, path or query is missing or invalid' },
  UNAUTHORIZED: { status: 401, description: 'the credentials sent are not accepted' },
  FORBIDDEN: { status: 403, description: 'signed in, but not allowed to do this' },
  NOT_FOUND: { status: 404, description: 'no such thing (or route)' },
  REQUEST_TIMEOUT: { status: 408, description: 'the request took too long' },
  CONFLICT: { status: 409, description: 'the current state does not allow this' },
  GONE: { status: 410, description: 'it existed and is gone for good' },
  PRECONDITION_FAILED: { status: 412, description: 'a precondition header does not hold' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'the request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'the body is not of a type this route reads' },
  RANGE_NOT_SATISFIABLE: { status: 416, description: 'the Range asked for lies outside the file' },
  RATE_LIMITED: { status: 429, description: 'too many requests; Retry-After says when to try again' },
  CHECKSUM_MISMATCH: { status: 460, description: 'tus: the Upload-Checksum does not match the bytes' },
  INTERNAL: { status: 500, description: 'a fault of the server (logged); not the caller’s doing' },
  BAD_GATEWAY: { status: 502, description: 'a service the portal relies on answered wrongly' },
  UNAVAILABLE: { status: 503, description: 'something the portal needs is not available right now' },
  INSUFFICIENT_STORAGE: { status: 507, description: 'there is no room to store this' },

  // Platform: access, sessions, probes, input, storage faults.
  AUTH_REQUIRED: { status: 401, description: 'sign in first (no session, or it ended)' },
  NOT_APPROVED: { status: 403, description: 'signed in, but not (or no longer) approved' },
  CONTROL_CHARACTER: { status: 400, description: 'a text field holds control characters' },
  NUMBER_OUT_OF_RANGE: { status: 400, description: 'a number is beyond what the field takes' },
  METRICS_TOKEN: { status: 401, description: 'GET /metrics needs the metrics token' },
  METRICS_DISABLED: { status: 404, description: 'metrics are off (no METRICS_TOKEN)' },
  DATABASE_UNAVAILABLE: { status: 503, description: 'the database cannot be reached right now' },
  STORED_DATA_DAMAGED: { status: 500, description: 'a stored chunk failed its checksum' },
  STORED_DATA_MISSING: { status: 410, description: 'a stored chunk is not in its store any more' },
  CLIENT_CLOSED: { status: 499, description: 'the client went away before the answer' },

  // Auth and users, admin.
  INVALID_ACCESS_CODE: { status: 401, description: 'the access code is wrong' },
  DISCORD_AUTH_FAILED: { status: 401, description: 'Discord did not confirm the sign-in' },
  INVALID_STATE: { status: 400, description: 'the OAuth state is unknown, expired or used' },
  OAUTH_NOT_CONFIGURED: { status: 503, description: 'Discord sign-in is not set up on this server' },
  CANNOT_REMOVE_SELF: { status: 400, description: 'an admin cannot remove themselves' },
  DEMO_NOT_REMOVABLE: { status: 400, description: 'the demo user cannot be removed' },
  ID_IMMUTABLE: { status: 400, description: 'a user’s Discord id cannot change' },
  DUPLICATE_USER: { status: 409, description: 'a user with this Discord id exists' },
  LAST_ADMIN: { status: 409, description: 'the last admin cannot be removed or lowered' },
  SETUP_MODE_LOCKOUT: { status: 409, description: 'the change would leave no way to sign in as admin' },

  // Discord role sync (issue 43).
  NOT_GUILD_MEMBER: {
    status: 403,
    description: 'the account is not a member of the community’s Discord server',
  },
  ROLE_REFUSED: { status: 403, description: 'the member’s Discord roles do not give access to the portal' },
  DISCORD_UNAVAILABLE: {
    status: 503,
    description: 'Discord (the bot’s view of the server) cannot be reached',
  },
  NOTHING_HELD: { status: 409, description: 'no held role-sync changes to confirm or discard' },
  ROLE_SYNC_NOT_CONFIGURED: {
    status: 409,
    description: 'role sync needs DISCORD_BOT_TOKEN and a server id first',
  },
  DISCORD_NOTES_NOT_CONFIGURED: {
    status: 409,
    description: 'channel notes need the bot, its server and PUBLIC_URL first',
  },

  // Files.
  ALREADY_COMPLETE: { status: 409, description: 'the upload is already complete' },
  BAD_MULTIPART: { status: 400, description: 'the upload body is not the multipart form expected' },
  CHUNKS_MISMATCH: { status: 400, description: 'the chunks received do not make the file announced' },
  SIZE_MISMATCH: { status: 400, description: 'the bytes received differ from the size announced' },
  EXPIRY_IN_PAST: { status: 400, description: 'a share cannot expire in the past' },
  FILE_TOO_LARGE: { status: 413, description: 'the file is larger than MAX_UPLOAD_BYTES' },
  MOVE_INTO_SELF: { status: 400, description: 'a folder cannot move into itself' },
  NAME_TAKEN: { status: 409, description: 'an item of that name exists in the folder' },
  NOT_A_FILE: { status: 400, description: 'this needs a file, not a folder' },
  NO_THUMBNAIL: { status: 404, description: 'the file has no thumbnail' },
  TOO_DEEP: { status: 400, description: 'folders nest too deep' },
  TOO_MANY_FILES: { status: 400, description: 'too many files in one request' },
  TICKET_INVALID: { status: 403, description: 'the download ticket is unknown, expired or someone else’s' },
  QUOTA_EXCEEDED: { status: 507, description: 'the member’s storage quota is used up' },
  STORAGE_FULL: { status: 507, description: 'the blob disk keeps its reserve free' },
  STORAGE_UNAVAILABLE: { status: 503, description: 'the file store cannot be reached' },
  THUMBNAIL_UNAVAILABLE: { status: 503, description: 'the thumbnail could not be made now' },
  BUSY: { status: 503, description: 'the server is busy with this kind of work; try again shortly' },
  DOWNLOADS_BUSY: { status: 503, description: 'the server runs as many downloads as it allows' },
  UPLOAD_BUSY: { status: 503, description: 'no upload buffer came free in time' },
  UPLOAD_CORRUPT: { status: 409, description: 'the upload’s bytes do not match their checksum' },
  UPLOAD_IN_PROGRESS: { status: 409, description: 'another request is writing this upload' },
  UPLOAD_TOO_SLOW: { status: 408, description: 'the upload body stalled or crawled' },
  TUS_VERSION: { status: 412, description: 'the tus protocol version is not 1.0.0' },
  TOO_MANY_ARCHIVES: { status: 429, description: 'too many ZIP downloads at once' },
  TOO_MANY_DOWNLOADS: { status: 429, description: 'too many downloads at once for one member/address' },
  TOO_MANY_RESUMABLE_UPLOADS: { status: 429, description: 'too many unfinished resumable uploads' },
  TOO_MANY_UPLOADS: { status: 429, description: 'too many uploads at once for one member' },
  SHARE_PASSWORD_REQUIRED: { status: 401, description: 'the share link needs its password' },
  SHARE_PASSWORD_WRONG: { status: 403, description: 'the share link’s password is wrong' },
  SHARE_LIMIT_REACHED: { status: 410, description: 'the share link has served its download limit' },
  SHARE_NOT_PREVIEWED: {
    status: 403,
    description: 'a link with a download limit is not previewed (viewer or link-preview bot)',
  },

  // Personal API tokens (issue 45).
  API_TOKEN_INVALID: { status: 401, description: 'the API token is unknown, revoked or expired' },
  API_TOKEN_SCOPE: { status: 403, description: 'the API token’s scopes do not cover this route' },
  TOO_MANY_API_TOKENS: { status: 409, description: 'the member has as many API tokens as allowed' },

  // Upload requests and notices (issue 45).
  UPLOAD_REQUEST_FULL: {
    status: 413,
    description: 'the upload link has no room (size or files) for this file',
  },
  UPLOAD_TYPE_REFUSED: { status: 415, description: 'the upload link does not take files of this type' },
  TOO_MANY_UPLOAD_REQUESTS: {
    status: 409,
    description: 'the member has as many open upload links as allowed',
  },
  TOO_MANY_GUEST_UPLOADS: {
    status: 429,
    description: 'too many guest uploads from one address, or at once on one link',
  },
  FOLDER_NOT_OWNED: {
    status: 403,
    description: 'an upload link can only point at one of the member’s own folders',
  },
  TOO_MANY_NOTICE_REQUESTS: { status: 429, description: 'too many notice-list requests from one member' },

  // Games.
  ALREADY_GUESSED: { status: 409, description: 'the word was already guessed' },
  DRAWER: { status: 403, description: 'the drawer cannot guess' },
  NOT_DRAWER: { status: 403, description: 'only the drawer may do this' },
  DRAWING_FULL: { status: 413, description: 'the drawing holds as many strokes as it may' },
  INVALID_MOVE: { status: 409, description: 'not a legal move now' },
  IN_GAME: { status: 409, description: 'already in a game' },
  LOBBY_FULL: { status: 409, description: 'the lobby is full' },
  NOT_FINISHED: { status: 409, description: 'the game has not finished' },
  NOT_IN_LOBBY: { status: 409, description: 'the game is not in its lobby' },
  NOT_IN_PROGRESS: { status: 409, description: 'the game is not being played' },
  NO_OPPONENT: { status: 409, description: 'there is no opponent yet' },
  OPPONENT_LEFT: { status: 409, description: 'the opponent left' },
  OPPONENT_PRESENT: { status: 409, description: 'the opponent is still there' },
  TOO_FEW_PLAYERS: { status: 409, description: 'not enough players to start' },
  TURN_OVER: { status: 409, description: 'the turn is over' },
  TOO_MANY: { status: 429, description: 'too many of these at once' },
  // Realtime (acks of a room subscription).
  TOO_MANY_ROOMS: { status: 429, description: 'one connection follows as many rooms as it may' },
  DISCONNECTED: { status: 409, description: 'the connection closed before the room could be joined' },
  CHOOSING: { status: 409, description: 'the drawer is still choosing the word' },
  NOT_CHOOSING: { status: 409, description: 'no word is being chosen now' },
  NOT_GUESSED: { status: 403, description: 'only players who guessed the word (and the drawer) may chat' },
  ALREADY_VOTED: { status: 409, description: 'this player already voted to kick that one' },
  KICKED: { status: 403, description: 'the player was removed from this game' },
  NOTHING_TO_UNDO: { status: 409, description: 'the drawer has no stroke left to undo' },
  GAME_OVER: { status: 409, description: 'the game has already ended' },
  GAME_FULL: { status: 409, description: 'the game already has its players' },
  RESERVED: { status: 409, description: 'the seat is kept for a rematch' },

  // Music.
  BAD_CURSOR: { status: 400, description: 'the page cursor is not one the server gave' },
  BOT_OFFLINE: { status: 503, description: 'the music bot is offline' },
  BOT_RECONNECTING: { status: 503, description: 'the music bot is reconnecting' },
  DUPLICATE_IN_QUEUE: {
    status: 409,
    description: 'the song is already queued and the server allows no duplicates',
  },
  DISCORD_ID_MISSING: { status: 400, description: 'the member has no Discord id to find in voice' },
  ENCODER_UNAVAILABLE: { status: 503, description: 'the audio encoder (ffmpeg) cannot run' },
  GUILD_NOT_FOUND: { status: 404, description: 'the bot is not in that Discord server' },
  INDEX_OUT_OF_RANGE: { status: 400, description: 'no queue entry at that position' },
  NOTHING_PLAYING: { status: 409, description: 'nothing is playing' },
  NOT_IN_BOT_CHANNEL: { status: 403, description: 'join the bot’s voice channel first' },
  NOT_IN_VOICE: { status: 409, description: 'join a voice channel first' },
  NOT_PLAYLIST_CREATOR: { status: 403, description: 'only the playlist’s creator may change it' },
  PLATFORM_UNAVAILABLE: { status: 502, description: 'the music platform did not answer' },
  PLATFORM_NOT_SUPPORTED: { status: 400, description: 'this server has no source for that platform' },
  PLAY_FAILED: { status: 502, description: 'the song could not be played' },
  PLAYLIST_EMPTY: { status: 409, description: 'the playlist has no songs' },
  LIST_NOT_FOUND: {
    status: 404,
    description: 'a YouTube playlist or SoundCloud set that does not exist or is private',
  },
  PLAYLIST_FULL: { status: 409, description: 'the playlist holds as many songs as it may' },
  PLAYLIST_NOT_FOUND: { status: 404, description: 'no such playlist' },
  PLAYLIST_SONG_NOT_FOUND: { status: 404, description: 'no such song in the playlist' },
  QUEUE_ENTRY_NOT_FOUND: { status: 404, description: 'no such queue entry' },
  QUEUE_FULL: { status: 409, description: 'the queue holds as many songs as it may' },
  SONG_ALREADY_ADDED: { status: 409, description: 'the song is already in the playlist' },
  SONG_NOT_FOUND: { status: 404, description: 'no song at that link' },
  SPOTIFY_NOT_CONFIGURED: {
    status: 503,
    description: 'Spotify links need SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET',
  },
  SPOTIFY_NO_MATCH: { status: 404, description: 'no track of the Spotify link matched a playable song' },
  TOO_MANY_PLAYLISTS: { status: 409, description: 'the member has as many playlists as allowed' },
  UNSUPPORTED_URL: { status: 400, description: 'not a link to a supported platform' },
  USER_ID_MISMATCH: { status: 403, description: 'the request names another member' },
  VOICE_JOIN_FAILED: { status: 503, description: 'the bot could not join the voice channel' },

  // OSINT.
  BAD_NOTE: { status: 400, description: 'the report’s note is not acceptable' },
  BAD_QUERY: { status: 400, description: 'the search query is not acceptable' },
  BAD_SITE: { status: 400, description: 'no such site in the search' },
  SEARCH_ABORTED: { status: 499, description: 'the search stopped because its client went away' },
  TOO_MANY_SEARCHES: { status: 429, description: 'the member has as many searches running as allowed' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The HTTP status a code always comes with. */
export function statusOfCode(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** The generic code for a status, for answers with nothing more specific to say. */
export function genericCodeFor(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 408:
      return 'REQUEST_TIMEOUT';
    case 409:
      return 'CONFLICT';
    case 410:
      return 'GONE';
    case 412:
      return 'PRECONDITION_FAILED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 416:
      return 'RANGE_NOT_SATISFIABLE';
    case 429:
      return 'RATE_LIMITED';
    case 460:
      return 'CHECKSUM_MISMATCH';
    case 499:
      return 'CLIENT_CLOSED';
    case 502:
      return 'BAD_GATEWAY';
    case 503:
      return 'UNAVAILABLE';
    case 507:
      return 'INSUFFICIENT_STORAGE';
    default:
      return status >= 500 ? 'INTERNAL' : 'BAD_REQUEST';
  }
}
