import type { Migration } from 'kysely/migration';
import * as m001 from './001_core.ts';
import * as m002 from './002_admin_audit.ts';
import * as m003 from './003_files.ts';
import * as m004 from './004_tictactoe.ts';
import * as m005 from './005_pictionary.ts';
import * as m006 from './006_music.ts';
import * as m008 from './008_storage.ts';
import * as m009 from './009_settings.ts';
import * as m010 from './010_ticket_sessions.ts';
import * as m011 from './011_security.ts';
import * as m012 from './012_chunk_crc.ts';
import * as m020 from './020_music_settings.ts';
import * as m030 from './030_osint.ts';
import * as m040 from './040_pictionary_presence.ts';
import * as m041 from './041_pictionary_play_again.ts';
import * as m042 from './042_tictactoe_series.ts';
import * as m043 from './043_pictionary_turns.ts';
import * as m044 from './044_pictionary_chat_kick.ts';
import * as m045 from './045_pictionary_drawing_tools.ts';
import * as m046 from './046_tictactoe_invites.ts';
import * as m047 from './047_pictionary_draw_time.ts';
import * as m050 from './050_storage_reservations.ts';
import * as m060 from './060_file_manager.ts';
import * as m061 from './061_file_thread_names.ts';
import * as m070 from './070_role_sync.ts';
import * as m071 from './071_music_bot.ts';
import * as m080 from './080_share_edits.ts';
import * as m081 from './081_api_tokens.ts';
import * as m082 from './082_role_sync_server_profile.ts';
import * as m083 from './083_discord_notes.ts';
import * as m084 from './084_upload_requests_notices.ts';
import * as m085 from './085_music_queue_options.ts';
import * as m086 from './086_music_history.ts';
import * as m087 from './087_music_autoplay.ts';
import * as m088 from './088_users_server_face.ts';

/** Every migration, in order. Numbers are reserved per feature: 002 audit, 003 files, 004 tic-tac-toe, 005 Pictionary, 006 music,
 * 007 OSINT, 008 file stores, 009 instance settings, 010 download tickets bound to sessions, 011 storage quotas,
 * 012 chunk CRC32C, 070 Discord role sync, 071 the music bot lease and stored playback,
 * 080 editable shares and download limits, 081 personal API tokens, 082 role sync's server nicknames and avatars,
 * 083 Discord channel notes' outbox, 084 upload requests and notices, 085 the music queue options, 086 the music
 * history, 087 music autoplay. */
export const migrations: Record<string, Migration> = {
  '001_core': m001,
  '002_admin_audit': m002,
  '003_files': m003,
  '004_tictactoe': m004,
  '005_pictionary': m005,
  '006_music': m006,
  '008_storage': m008,
  '009_settings': m009,
  '010_ticket_sessions': m010,
  '011_security': m011,
  '012_chunk_crc': m012,
  '020_music_settings': m020,
  '030_osint': m030,
  '040_pictionary_presence': m040,
  '041_pictionary_play_again': m041,
  '042_tictactoe_series': m042,
  '043_pictionary_turns': m043,
  '044_pictionary_chat_kick': m044,
  '045_pictionary_drawing_tools': m045,
  '046_tictactoe_invites': m046,
  '047_pictionary_draw_time': m047,
  '050_storage_reservations': m050,
  '060_file_manager': m060,
  '061_file_thread_names': m061,
  '070_role_sync': m070,
  '071_music_bot': m071,
  '080_share_edits': m080,
  '081_api_tokens': m081,
  '082_role_sync_server_profile': m082,
  '083_discord_notes': m083,
  '084_upload_requests_notices': m084,
  '085_music_queue_options': m085,
  '086_music_history': m086,
  '087_music_autoplay': m087,
  '088_users_server_face': m088,
};
