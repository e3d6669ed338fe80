import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS_LINE } from './node-flags.ts';

describe('server node flags', () => {
  it('npm start and start:prebuilt pass the same V8 flags the tests and benchmarks use', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const script of ['start', 'start:prebuilt']) {
      expect(pkg.scripts[script]).toContain(`node ${SERVER_NODE_FLAGS_LINE} server/dist/main.mjs`);
    }
  });

  it('the README tells hosts the same command line', () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8');
    expect(readme).toContain(`node ${SERVER_NODE_FLAGS_LINE} server/dist/main.mjs`);
  });
});
