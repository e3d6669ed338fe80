import { testCaBundle } from '../../server/src/test/fake-discord-bot/ca-env.ts';
import { FAKE_BOT_TOKEN } from '../../server/src/test/fake-discord-bot/index.ts';

/** The fake Discord the music bot logs in to during browser tests (its gateway/REST port and control port). */
export const BOT_PORT = Number(process.env.E2E_BOT_PORT ?? 4312);
export const BOT_CONTROL_PORT = BOT_PORT + 1;
export const BOT_CONTROL_URL = `http://127.0.0.1:${BOT_CONTROL_PORT}`;

/** The e2e server the bot is on, its voice channel, and the members the tests sign in as. */
export const MUSIC_GUILD = { id: '710000000000000001', name: 'Guildhall E2E' } as const;
export const LOUNGE = { id: '710000000000000011', name: 'Lounge' } as const;
/** Text channels of the e2e server: where slash commands are used and channel notes go (issue 44). */
export const TEXT_CHANNELS = {
  general: { id: '710000000000000021', name: 'general' },
  portalNotes: { id: '710000000000000022', name: 'portal-notes' },
} as const;
export const MUSIC_MEMBERS = {
  alice: { id: '510000000000000001', username: 'alice_e2e' },
  bob: { id: '510000000000000002', username: 'bob_e2e' },
  /** Never joins a voice channel. */
  carol: { id: '510000000000000003', username: 'carol_e2e' },
} as const;
export type MusicMemberKey = keyof typeof MUSIC_MEMBERS;

/**
 * The e2e server's roles, as the role sync's admin card lists them (issue 43). Nobody holds one until a
 * test gives it to a member of its own (POST /members on the control endpoint), so mapping them changes
 * no other test's members.
 */
export const GUILD_ROLES = {
  admins: { id: '720000000000000001', name: 'Admins', color: 0xe74c3c, position: 5 },
  mod: { id: '720000000000000002', name: 'Mod', color: 0x2ecc71, position: 4 },
  member: { id: '720000000000000003', name: 'Member', color: 0x3498db, position: 3 },
  guest: { id: '720000000000000004', name: 'Guest', position: 2 },
  muted: { id: '720000000000000005', name: 'Muted', color: 0x95a5a6, position: 1 },
  bot: { id: '720000000000000006', name: 'Guildhall Music', color: 0xf1c40f, position: 6, managed: true },
} as const;

/**
 * What the portal under test needs to run its bot against the fake: the token, the REST base URL and the
 * test CA for the fake's TLS voice gateway. `E2E_MUSIC_BOT=off` gives none of it: the bot stays offline.
 */
export function musicAppEnv(): Record<string, string> {
  if (process.env.E2E_MUSIC_BOT === 'off') return {};
  return {
    DISCORD_BOT_TOKEN: FAKE_BOT_TOKEN,
    DISCORD_BOT_API_URL: `http://127.0.0.1:${BOT_PORT}/api`,
    MUSIC_DEFAULT_GUILD_ID: MUSIC_GUILD.id,
    // The fake's TLS voice gateway is signed by a test CA; keep any CAs the environment already trusts.
    NODE_EXTRA_CA_CERTS: testCaBundle(),
  };
}
