import fs from 'node:fs';
import path from 'node:path';
import { OPS_PATHS } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVER_NODE_FLAGS_LINE } from '../node-flags.ts';

const repo = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(repo, file), 'utf8');

type Compose = {
  services: Record<
    string,
    { command?: string; environment?: Record<string, string>; healthcheck?: { test: string[] } }
  >;
};

/** compose.yaml cannot run here (no container runtime), so this keeps it consistent with the README. */
describe('deployment recipes (issue 16)', () => {
  const readme = read('README.md');

  it('compose.yaml sets only variables the README documents, starts the portal as the README says, probes /readyz', () => {
    const compose = parse(read('compose.yaml')) as Compose;
    const portal = compose.services.portal;
    expect(portal).toBeDefined();
    for (const name of Object.keys(portal?.environment ?? {})) {
      expect(readme, `README documents ${name}`).toContain(`| \`${name}\` |`);
    }
    expect(portal?.command).toContain('npm run start:prebuilt');
    expect(readme).toContain('npm run start:prebuilt');
    expect(portal?.healthcheck?.test.join(' ')).toContain(OPS_PATHS.readiness);
    expect(Object.keys(compose.services).sort()).toEqual(['db', 'portal', 'redis']);
  });

  it('the systemd unit runs the server with the same V8 flags as npm start, and outlasts the shutdown grace', () => {
    const unit = read('deploy/systemd/guildhall.service');
    expect(unit).toContain(`${SERVER_NODE_FLAGS_LINE} server/dist/main.mjs`);
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
