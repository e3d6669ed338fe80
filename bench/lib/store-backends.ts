import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { startS3Server } from '../../server/src/test/s3-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export type StoreBackend = {
  kind: 's3' | 'discord';
  env: Record<string, string>;
  pid: number;
  close: () => Promise<void>;
};

/** s3rver (a process of its own) with a fresh prefix: FILES_STORE=s3 for the server under test. */
export async function startS3Backend(): Promise<StoreBackend> {
  const s3 = await startS3Server();
  return { kind: 's3', env: s3.env(), pid: 0, close: () => s3.close() };
}

/** The fake Discord file API and CDN in a process of its own: FILES_STORE=discord. */
export async function startDiscordBackend(): Promise<StoreBackend> {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(ROOT, 'server/src/test/fake-discord-files/main.ts')],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const info = await new Promise<{ apiUrl: string; botToken: string; channelId: string }>(
    (resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n')[0];
        if (out.includes('\n') && line) resolve(JSON.parse(line));
      });
      child.once('exit', (code) => reject(new Error(`fake Discord exited (${code})`)));
    },
  );
  return {
    kind: 'discord',
    env: {
      FILES_STORE: 'discord',
      DISCORD_API_URL: info.apiUrl,
      DISCORD_BOT_TOKEN: info.botToken,
      FILES_DISCORD_CHANNEL_ID: info.channelId,
    },
    pid: child.pid!,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
