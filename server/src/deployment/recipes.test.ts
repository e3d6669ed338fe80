import fs from 'node:fs';
import path from 'node:path';
import { OPS_PATHS } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVER_NODE_FLAGS_LINE } from '../node-flags.ts';

const repo = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(repo, file), 'utf8');

type Service = {
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  image?: string;
  restart?: string;
  profiles?: string[];
  ports?: string[];
  volumes?: string[];
  env_file?: { path: string; required: boolean }[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[]; start_period?: string };
};
type Compose = { services: Record<string, Service>; volumes: Record<string, unknown> };

const pkg = JSON.parse(read('package.json')) as { version: string };

/** compose.yaml's shape; the image itself is built and run with Podman in container.test.ts. */
describe('deployment recipes (issues 16, 32)', () => {
  const readme = read('README.md');

  it('compose.yaml builds the image, tags it with the release, restarts it, probes /readyz after a start period', () => {
    const compose = parse(read('compose.yaml'), { merge: true }) as Compose;
    const portal = compose.services.portal;
    expect(portal?.build?.dockerfile).toBe('Containerfile');
    expect(portal?.build?.args?.VERSION).toBe(pkg.version);
    expect(portal?.image).toBe(`localhost/guildhall:${pkg.version}`);
    expect(portal?.restart).toBe('unless-stopped');
    expect(portal?.env_file).toEqual([{ path: '.env', required: false }]);
    expect(portal?.healthcheck?.test.join(' ')).toContain(OPS_PATHS.readiness);
    expect(portal?.healthcheck?.start_period).toBeDefined();
    // A named volume, and the port on loopback unless the host says otherwise.
    expect(portal?.volumes).toEqual(['guildhall-data:/data']);
    expect(Object.keys(compose.volumes)).toContain('guildhall-data');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own variable syntax, not a template.
    expect(portal?.ports).toEqual(['${GUILDHALL_BIND:-127.0.0.1}:${GUILDHALL_PORT:-3000}:3000']);
  });

  it('compose.yaml has a postgres profile: a second instance sharing PostgreSQL, Redis and the files volume', () => {
    const compose = parse(read('compose.yaml'), { merge: true }) as Compose;
    for (const name of ['portal-2', 'db', 'redis']) {
      expect(compose.services[name]?.profiles).toEqual(['postgres']);
    }
    const second = compose.services['portal-2'];
    expect(second?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/guildhall:.*@db:5432\/guildhall$/);
    expect(second?.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(second?.volumes).toEqual(['guildhall-data:/data']);
    for (const name of Object.keys(second?.environment ?? {})) {
      expect(readme, `README documents ${name}`).toContain(`| \`${name}\` |`);
    }
  });

  it('the Containerfile runs the server with the V8 flags of start:prebuilt, as a non-root user, with a /data volume', () => {
    const file = read('Containerfile');
    const entry = /^ENTRYPOINT (\[.*\])$/m.exec(file)?.[1];
    expect(JSON.parse(entry ?? '[]')).toEqual(['node', ...SERVER_NODE_FLAGS_LINE.split(' ')]);
    expect(file).toContain('CMD ["server/dist/main.mjs"]');
    expect(file).toMatch(/^USER guildhall/m);
    expect(file).toContain('VOLUME /data');
    expect(file).toMatch(/^HEALTHCHECK .*\n.*\/healthz/m);
    expect(file).toContain(`ARG VERSION=${pkg.version}`);
    expect(file).toMatch(/^ARG BASE=docker\.io\/library\/debian:bookworm-slim$/m);
  });

  it('the systemd unit runs Node 24 (not /usr/bin/node) with the V8 flags of npm start, on loopback, outlasting the grace', () => {
    const unit = read('deploy/systemd/guildhall.service');
    expect(unit).toContain(`ExecStart=/usr/local/bin/node ${SERVER_NODE_FLAGS_LINE} server/dist/main.mjs`);
    expect(unit).toMatch(/^Environment=HOST=127\.0\.0\.1$/m);
    const stop = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]);
    expect(stop).toBeGreaterThan(30);
  });

  it('the nginx file has what docs/operations.md says a proxy needs', () => {
    const conf = read('deploy/nginx/guildhall.conf');
    for (const line of [
      'proxy_set_header Upgrade $http_upgrade;',
      'client_max_body_size 0;',
      'proxy_request_buffering off;',
      'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      'proxy_next_upstream error timeout http_503 non_idempotent;',
      // Issue 31: the portal's precompressed web app passes through; nothing is compressed twice.
      'gzip off;',
    ]) {
      expect(conf).toContain(line);
    }
  });

  it('Caddy passes the precompressed web app through: no encode directive (issue 31)', () => {
    const caddy = read('deploy/caddy/Caddyfile')
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'));
    expect(caddy.some((line) => /^\s*encode\b/.test(line))).toBe(false);
  });
});
