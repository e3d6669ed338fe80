import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvSchema, loadConfig } from './config.ts';
import { CONFIG_SECTIONS, rawDefault, renderEnvExample } from './config-reference.ts';

const repo = path.resolve(import.meta.dirname, '../..');

describe('.env.example agrees with the config schema (issue 32)', () => {
  it('is exactly what `npm run env-example` generates (run it after changing config.ts)', () => {
    expect(fs.readFileSync(path.join(repo, '.env.example'), 'utf8')).toBe(renderEnvExample());
  });

  it('lists every variable the server reads, and no other', () => {
    const inFile = [...renderEnvExample().matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(inFile.sort()).toEqual(Object.keys(EnvSchema.shape).sort());
    for (const section of CONFIG_SECTIONS) {
      for (const name of Object.keys(section.vars)) expect(EnvSchema.shape).toHaveProperty(name);
    }
  });

  it("shows each variable's real default, and every uncommented line of it parses", () => {
    expect(rawDefault(EnvSchema.shape.PORT)).toBe('3000');
    expect(rawDefault(EnvSchema.shape.TRUST_PROXY)).toBe('false');
    expect(rawDefault(EnvSchema.shape.REDIS_URL)).toBeUndefined();
    // Uncommenting every line that has a value must give a configuration the server accepts.
    const env = Object.fromEntries(
      [...renderEnvExample().matchAll(/^# ([A-Z][A-Z0-9_]+)=(.+)$/gm)].map((m) => [m[1], m[2]]),
    );
    delete env.OUTBOUND_TEST_ALLOW;
    expect(() => loadConfig({ ...env, FILES_STORE: 'local' })).not.toThrow();
  });
});
