import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_MODULES, EnvSchema, envSchemaOf, loadConfig } from './config.ts';
import { rawDefault, renderEnvExample, renderReadmeTable, withReadmeTable } from './config-reference.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const declared = () => CONFIG_MODULES.flatMap((m) => Object.keys(m.vars)).sort();

describe('.env.example and the README table agree with the declarations (issues 32, 46)', () => {
  it('.env.example is exactly what `npm run env-example` generates (run it after changing a config module)', () => {
    expect(fs.readFileSync(path.join(repo, '.env.example'), 'utf8')).toBe(renderEnvExample());
  });

  it("the README's configuration tables are exactly what `npm run env-example` generates", () => {
    const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
    expect(readme).toBe(withReadmeTable(readme));
  });

  it('both list every variable the server reads, once, and no other', () => {
    const inFile = [...renderEnvExample().matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(inFile.sort()).toEqual(Object.keys(EnvSchema.shape).sort());
    const inReadme = [...renderReadmeTable().matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(inReadme.sort()).toEqual(Object.keys(EnvSchema.shape).sort());
    expect(declared()).toEqual(Object.keys(EnvSchema.shape).sort());
  });

  it('every variable says what it does', () => {
    for (const m of CONFIG_MODULES) {
      for (const [name, decl] of Object.entries(m.vars)) expect(decl.doc.trim(), name).not.toBe('');
    }
  });

  it('a variable declared by two modules is refused', () => {
    const twice = [
      CONFIG_MODULES[0]!,
      { ...CONFIG_MODULES[1]!, vars: { PORT: CONFIG_MODULES[0]!.vars.PORT! } },
    ];
    expect(() => envSchemaOf(twice)).toThrow(/PORT is declared twice/);
  });

  it("shows each variable's real default, and every uncommented line of it parses", () => {
    expect(rawDefault(EnvSchema.shape.PORT!)).toBe('3000');
    expect(rawDefault(EnvSchema.shape.TRUST_PROXY!)).toBe('false');
    expect(rawDefault(EnvSchema.shape.REDIS_URL!)).toBeUndefined();
    expect(renderReadmeTable()).toContain('| `PORT` | `3000` | HTTP port |');
    // Uncommenting every line that has a value must give a configuration the server accepts.
    const env = Object.fromEntries(
      [...renderEnvExample().matchAll(/^# ([A-Z][A-Z0-9_]+)=(.+)$/gm)].map((m) => [m[1], m[2]]),
    );
    delete env.OUTBOUND_TEST_ALLOW;
    expect(() => loadConfig({ ...env, FILES_STORE: 'local' })).not.toThrow();
  });
});
