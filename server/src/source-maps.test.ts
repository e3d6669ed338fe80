import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer, trimSourceMap } from '../bundle.ts';
import { SERVER_NODE_FLAGS } from './node-flags.ts';
import { deadline } from './test/time-scale.ts';

/**
 * Production mode runs the rolldown bundle. A thrown error must still be readable: with the flags
 * `npm start` uses, the stack it logs points into server/src, not into the bundle. The bundle goes
 * beside the real one (server/.tmp/…) so the source maps' relative paths lead to server/src.
 */
const serverDir = path.resolve(import.meta.dirname, '..');
const dist = path.join(serverDir, '.tmp', `bundle-${process.pid}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-sourcemaps-'));

beforeAll(async () => {
  await bundleServer(dist);
});
afterAll(() => {
  fs.rmSync(dist, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Starts the bundled server so that start-up throws an error the server has no one-line answer for (its
 * access-code file is a directory: EISDIR), which is printed with its stack, and returns its stderr.
 * (A refused Redis is one line without a stack since issue 32.)
 */
function failingStart(flags: readonly string[]): string {
  fs.mkdirSync(path.join(dataDir, 'access-code.txt'), { recursive: true });
  const run = spawnSync(process.execPath, [...flags, path.join(dist, 'main.mjs')], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PORT: '0',
    },
    encoding: 'utf8',
    timeout: deadline(30_000),
  });
  expect(run.status).toBe(1);
  return run.stderr;
}

/** The stack frames of our code (Node's own `node:` frames left out). */
function ownFrames(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.trim().startsWith('at ') && !l.includes('node:'));
}

describe('production stack traces', () => {
  it('with the start flags, a thrown error logs a stack pointing into server/src', () => {
    const stderr = failingStart(SERVER_NODE_FLAGS);
    expect(stderr).toContain('EISDIR');
    const frames = ownFrames(stderr);
    expect(frames[0]).toMatch(/server\/src\/[\w/.-]+\.ts:\d+:\d+/);
  });

  it('the shipped maps hold only our own code: no dependency positions, no source texts', () => {
    for (const name of fs.readdirSync(dist).filter((n) => n.endsWith('.map'))) {
      const map = JSON.parse(fs.readFileSync(path.join(dist, name), 'utf8')) as {
        sources: string[];
        mappings: string;
        sourcesContent?: unknown;
      };
      expect(map.sourcesContent).toBeUndefined();
      const mapped = new Set(
        decode(map.mappings).flatMap((line) => line.flatMap((s) => (s.length > 1 ? [s[1]!] : []))),
      );
      expect([...mapped].map((i) => map.sources[i]).filter((s) => s?.includes('node_modules/'))).toEqual([]);
    }
  });

  it('(the flag is what does it: without it the same stack points into the bundle)', () => {
    const stderr = failingStart(SERVER_NODE_FLAGS.filter((f) => f !== '--enable-source-maps'));
    const frames = ownFrames(stderr);
    expect(frames[0]).toMatch(/\.mjs:\d+:\d+\)?$/);
    expect(frames[0]).not.toContain('server/src');
  });
});

describe('trimSourceMap', () => {
  it('keeps our positions, and Node finds no source for a position in a dependency', () => {
    const sources = ['../src/ours.ts', '../../node_modules/dep/index.js'];
    const trimmed = trimSourceMap({
      version: 3,
      sources,
      names: [],
      sourcesContent: ['ours', 'theirs'],
      mappings: encode([
        [
          [0, 0, 0, 0],
          [10, 1, 5, 0],
          [20, 1, 6, 2],
          [30, 0, 1, 4],
        ],
        [[0, 1, 7, 0]],
        [[0, 0, 2, 0]],
      ]),
    });
    expect(decode(trimmed.mappings)).toEqual([[[0, 0, 0, 0], [10], [30, 0, 1, 4]], [[0]], [[0, 0, 2, 0]]]);
    expect(trimmed.sourcesContent).toBeUndefined();
    // Node's own lookup, as --enable-source-maps uses it (zero-based line and column).
    const map = new SourceMap(trimmed as unknown as ConstructorParameters<typeof SourceMap>[0]);
    const source = (line: number, column: number) =>
      (map.findEntry(line, column) as { originalSource?: string }).originalSource;
    expect(source(0, 5)).toMatch(/ours\.ts$/);
    expect(source(0, 25)).toBeUndefined(); // inside the dependency
    expect(source(0, 35)).toMatch(/ours\.ts$/);
    expect(source(1, 3)).toBeUndefined();
    expect(source(2, 0)).toMatch(/ours\.ts$/);
  });
});
