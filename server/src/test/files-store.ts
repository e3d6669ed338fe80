import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { createBlobStore } from '../platform/blob-store/index.ts';
import { type FakeDiscordFiles, startFakeDiscordFiles } from './fake-discord-files/server.ts';
import { type S3TestServer, startS3Server } from './s3-server.ts';

/**
 * The files suites run on the store TEST_FILES_STORE names (local by default, `s3` against s3rver,
 * `discord` against the fake Discord; set by hand, CI proves each store with the contract and smoke
 * suites instead). The servers start once per test process, on first use; each test app gets its own S3
 * prefix or Discord channel.
 */
export type TestFilesStore = 'local' | 's3' | 'discord';

export function testFilesStore(): TestFilesStore {
  const v = process.env.TEST_FILES_STORE;
  return v === 's3' || v === 'discord' ? v : 'local';
}

let s3: Promise<S3TestServer> | null = null;
let discord: Promise<FakeDiscordFiles> | null = null;

// Closing a shared server forgets it: test files share a worker's modules (vitest.config.ts, isolate:
// false), so the next file that asks starts a fresh one instead of getting a closed one.
export function sharedS3Server(): Promise<S3TestServer> {
  s3 ??= startS3Server().then((server) => ({ ...server, close: forgetting(server, () => (s3 = null)) }));
  return s3;
}

export function sharedFakeDiscordFiles(): Promise<FakeDiscordFiles> {
  discord ??= startFakeDiscordFiles().then((fake) => ({
    ...fake,
    close: forgetting(fake, () => (discord = null)),
  }));
  return discord;
}

function forgetting(server: { close(): Promise<void> }, forget: () => void): () => Promise<void> {
  return () => {
    forget();
    return server.close();
  };
}

/** Environment for a fresh app on the store under test (empty for local disk). */
export async function filesStoreEnv(
  store: TestFilesStore = testFilesStore(),
): Promise<Record<string, string>> {
  if (store === 's3') return (await sharedS3Server()).env();
  if (store === 'discord') {
    const fake = await sharedFakeDiscordFiles();
    return {
      FILES_STORE: 'discord',
      DISCORD_API_URL: fake.apiUrl,
      DISCORD_BOT_TOKEN: fake.botToken,
      FILES_DISCORD_CHANNEL_ID: fake.createChannel(),
    };
  }
  return {};
}

/** The ids of every committed blob in an app's store (as file_chunks.blob_id holds them). */
export async function storedBlobIds(config: Config): Promise<string[]> {
  const files = config.blobStore;
  if (files.store === 'discord' && files.discord) {
    const fake = await sharedFakeDiscordFiles();
    return fake.blobIdsOf(files.discord.channelId).map((id) => `discord:${id}`);
  }
  const store = createBlobStore({ ...config, blobStore: { ...files, discord: undefined } });
  const ids: string[] = [];
  for await (const b of store.list()) ids.push(b.id);
  await store.close();
  return ids;
}

/** Half-written blobs (the local store's tmp/ directory; remote stores write nothing half-way). */
export function temporaryBlobs(config: Config): string[] {
  if (config.blobStore.store !== 'local') return [];
  const dir = path.join(config.dataDir, 'blobs', 'tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}
