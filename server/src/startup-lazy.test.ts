import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './node-flags.ts';

/**
 * Start-up loads only what a request needs first (issue 47, bench/startup): the libraries of optional
 * or later work load when that work first happens. The real server starts from source on an empty data
 * dir with a loader hook that records every module it loads; once it answers, the list must hold
 * none of them. Each entry is a part of a module's URL.
 */
const LOADED_ON_FIRST_USE = [
  '/node_modules/discord.js/', // the music bot, with a bot token only
  '/node_modules/@discordjs/', // voice (the players), rest (the Discord blob store)
  '/node_modules/prism-media/', // the Ogg demuxer of a playing track
  '/node_modules/youtubei.js/', // YouTube search and streams
  '/node_modules/undici/', // the OSINT fetcher and the Discord store
  '/node_modules/sharp/', // thumbnails
  '/node_modules/@aws-sdk/', // the S3 store
  '/node_modules/redis/', // with REDIS_URL only
  '/node_modules/@redis/',
  '/node_modules/pg/', // with a postgres:// DATABASE_URL only
  '/node_modules/@tus/server/', // the first resumable upload
  '/node_modules/maxmind/', // OSINT geolocation
  '/node_modules/libphonenumber-js/', // OSINT phone numbers
  '/node_modules/disposable-email-domains/', // OSINT e-mail
  '/features/osint/data/wmn-data.json', // the OSINT site list
  '/platform/outbound/fetcher.ts',
  '/features/music/player.ts',
];

/** A TCP port on loopback that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-lazy-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Module URLs, and Node's own module list, of a server started from source once it answers /healthz. */
async function loadedAtStart(): Promise<{ urls: string[]; builtins: string[] }> {
  const urlsFile = path.join(dataDir, 'loaded.txt');
  const builtinsFile = path.join(dataDir, 'builtins.json');
  const hook = path.join(dataDir, 'record-loads.mjs');
  fs.writeFileSync(
    hook,
    `import fs from 'node:fs';
import module from 'node:module';
module.registerHooks({
  load(url, context, next) {
    fs.appendFileSync(${JSON.stringify(urlsFile)}, url + '\\n');
    return next(url, context);
  },
});
// Written aside and renamed: the test polls for the file, and must never read it half written.
process.on('SIGUSR2', () => {
  fs.writeFileSync(${JSON.stringify(`${builtinsFile}.part`)}, JSON.stringify(process.moduleLoadList));
  fs.renameSync(${JSON.stringify(`${builtinsFile}.part`)}, ${JSON.stringify(builtinsFile)});
});
`,
  );
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, '--import', hook, path.join(import.meta.dirname, 'main.ts')],
    {
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: 'ignore',
    },
  );
  const exited = new Promise((r) => child.once('exit', r));
  try {
    await expect
      .poll(
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
          return res?.status;
        },
        { interval: 50 },
      )
      .toBe(200);
    child.kill('SIGUSR2');
    await expect.poll(() => fs.existsSync(builtinsFile)).toBe(true);
    return {
      urls: fs.readFileSync(urlsFile, 'utf8').split('\n').filter(Boolean),
      builtins: JSON.parse(fs.readFileSync(builtinsFile, 'utf8')) as string[],
    };
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

describe('start-up loads what the first request needs (issue 47)', () => {
  it('none of the libraries of later or optional work is loaded by the time the server answers', async () => {
    const { urls, builtins } = await loadedAtStart();
    // The recording works: what start-up does need is in it.
    expect(urls.some((u) => u.includes('/node_modules/fastify/'))).toBe(true);
    expect(urls.some((u) => u.endsWith('/features/osint/top-sites.ts'))).toBe(true);
    expect(LOADED_ON_FIRST_USE.filter((part) => urls.some((u) => u.includes(part)))).toEqual([]);
    // An ESM import of node:http loads Node's internal undici (platform/transfer/loopback-server.ts).
    expect(builtins.filter((m) => m.includes('deps/undici'))).toEqual([]);
  });
});
