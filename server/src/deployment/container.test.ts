import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEMO_USER_ID } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * The container image (Containerfile) built and run with Podman (issue 32). Opt-in, because a build takes
 * minutes: `.ci/container-test` sets TEST_CONTAINER=1 and, where no public registry is reachable,
 * TEST_CONTAINER_BASE to a Debian image made with mmdebstrap (../shared/notes/containers.md), and
 * TEST_CONTAINER_CA_FILE to the CA of a proxy that intercepts TLS, when there is one.
 */
const enabled = process.env.TEST_CONTAINER === '1';
const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string };
/**
 * The goal for the image's size (issue 32) is 400 MB; it is not met (≈ 790 MB: Debian's ffmpeg with its
 * codec libraries ≈ 300 MB, Node 24 ≈ 125 MB, the OSINT geolocation database 131 MB; docs/operations.md).
 * The test prints the size and fails if it grows past the limit, so it cannot creep up unnoticed.
 */
const SIZE_GOAL_MB = 400;
const SIZE_LIMIT_MB = 820;

async function podman(args: string[], timeout = 60_000): Promise<string> {
  const { stdout } = await run('podman', args, { timeout, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.runIf(enabled)('the container image, built and run with Podman (issue 32)', () => {
  const tag = `localhost/guildhall-test-${process.pid}:${pkg.version}`;
  const name = `guildhall-test-${process.pid}`;
  const accessCode = randomBytes(12).toString('hex');
  let url: string;

  beforeAll(async () => {
    const base = process.env.TEST_CONTAINER_BASE;
    // --format docker keeps HEALTHCHECK (the OCI format has no field for it).
    const args = ['build', '--format', 'docker', '-t', tag, '-f', 'Containerfile'];
    if (base) args.push('--build-arg', `BASE=${base}`);
    // Behind a TLS-intercepting proxy (our CI's), the build stages must trust its CA to reach the registry.
    const caFile = process.env.TEST_CONTAINER_CA_FILE;
    if (caFile) args.push('--build-arg', `EXTRA_CA_CERTS=${fs.readFileSync(caFile, 'utf8')}`);
    const started = Date.now();
    await run('podman', [...args, repo], { cwd: repo, timeout: 40 * 60_000, maxBuffer: 256 * 1024 * 1024 });
    console.log(`image built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const port = await freePort();
    await podman([
      'run',
      '-d',
      '--name',
      name,
      '-p',
      `127.0.0.1:${port}:3000`,
      '-e',
      `ACCESS_CODE=${accessCode}`,
      tag,
    ]);
    url = `http://127.0.0.1:${port}`;
    await vi.waitFor(
      async () => {
        const res = await fetch(`${url}/healthz`);
        if (res.status !== 200) throw new Error(`not up yet: ${res.status}`);
      },
      { timeout: 60_000, interval: 250 },
    );
  }, 45 * 60_000);

  afterAll(async () => {
    if (enabled && process.env.TEST_CONTAINER_KEEP !== '1') {
      await podman(['rm', '-f', '-v', name]).catch(() => undefined);
      await podman(['rmi', '-f', tag]).catch(() => undefined);
    }
  }, 120_000);

  it('reports its size (goal under 400 MB) and carries the release version in a label', async () => {
    const bytes = Number(await podman(['image', 'inspect', tag, '--format', '{{.Size}}']));
    const mb = bytes / 1e6;
    console.log(`image size: ${mb.toFixed(0)} MB (goal < ${SIZE_GOAL_MB} MB)`);
    expect(mb).toBeLessThan(SIZE_LIMIT_MB);
    const label = await podman([
      'image',
      'inspect',
      tag,
      '--format',
      '{{index .Labels "org.opencontainers.image.version"}}',
    ]);
    expect(label).toBe(pkg.version);
  });

  it('answers /healthz with its version, and its own HEALTHCHECK passes', async () => {
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', version: pkg.version });
    // Exit status 0 = healthy (podman runs the image's HEALTHCHECK command inside the container).
    await expect(podman(['healthcheck', 'run', name])).resolves.toBeDefined();
  });

  it('runs as a non-root user, keeps its data in /data, and has ffmpeg for the music bot', async () => {
    const status = await podman(['exec', name, 'cat', '/proc/1/status']);
    const uids = /^Uid:\s+(\d+)\s+(\d+)/m.exec(status);
    expect(uids).not.toBeNull();
    expect(Number(uids?.[1])).not.toBe(0);
    expect(Number(uids?.[2])).not.toBe(0);
    const data = await podman(['exec', name, 'ls', '/data']);
    expect(data.split('\n')).toContain('guildhall.db');
    await expect(podman(['exec', name, 'ffmpeg', '-hide_banner', '-version'])).resolves.toMatch(/ffmpeg/);
  });

  it('signs in with the access code and round-trips an upload and a download', async () => {
    const signIn = await fetch(`${url}/api/auth/access-code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: accessCode }),
    });
    expect(signIn.status).toBe(200);
    const { token } = (await signIn.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const me = await fetch(`${url}/api/auth/validate`, { headers: auth });
    expect(((await me.json()) as { user: { discord_id: string } }).user.discord_id).toBe(DEMO_USER_ID);

    const content = randomBytes(9 * 1024 * 1024 + 123); // more than one 8 MiB chunk
    const form = new FormData();
    form.append('file', new Blob([content]), 'round-trip.bin');
    const started = await fetch(`${url}/upload`, { method: 'POST', headers: auth, body: form });
    expect(started.status).toBe(200);
    const { fileId, totalChunks } = (await started.json()) as { fileId: string; totalChunks: number };
    const done = await fetch(`${url}/upload/complete`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ fileId, fileName: 'round-trip.bin', fileSize: content.length, totalChunks }),
    });
    expect(done.status).toBe(200);
    const id = ((await done.json()) as { data: { id: string } }).data.id;
    const download = await fetch(`${url}/download/${id}`, { headers: auth });
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(content));
  });

  it('runs the admin command inside the image', async () => {
    const out = await podman(['exec', name, 'node', 'server/dist/admin.mjs', 'list']);
    expect(out).toContain(DEMO_USER_ID);
  });
});
