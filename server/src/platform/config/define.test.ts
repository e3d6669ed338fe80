import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildSlice, defineConfig } from './define.ts';
import { positiveInt } from './env.ts';

/** A module as a feature writes one: plain fields, a nested group, an optional one, and a computed value. */
const example = defineConfig({
  title: 'Example',
  vars: {
    EX_TIMEOUT_MS: { field: 'timeoutMs', schema: positiveInt('EX_TIMEOUT_MS').default(5000), doc: 'a limit' },
    EX_PER_USER: {
      field: 'limits.perUser',
      schema: positiveInt('EX_PER_USER').default(2),
      doc: 'per member',
    },
    EX_MAX: { field: 'limits.max', schema: positiveInt('EX_MAX').default(10), doc: 'in all' },
    EX_KEY: { field: 'key', schema: z.string().optional(), doc: 'optional' },
    EX_SHARE: { schema: positiveInt('EX_SHARE').default(4), doc: 'read only by build' },
  },
  build: (e, shared: { base: string }) => ({
    limits: { share: Math.min(e.EX_SHARE, e.EX_MAX) },
    base: shared.base,
  }),
});

const schema = z.object(
  Object.fromEntries(Object.entries(example.vars).map(([name, d]) => [name, d.schema])),
);
const parse = (env: Record<string, string>) => schema.parse(env) as never;

describe('a config module: the slice comes from the declarations', () => {
  it("puts each variable's parsed value at its field, groups by dotted path, then adds what build computes", () => {
    const slice = buildSlice(example, parse({ EX_TIMEOUT_MS: '250', EX_MAX: '3' }), { base: 'b' });
    expect(slice).toEqual({
      timeoutMs: 250,
      limits: { perUser: 2, max: 3, share: 3 },
      key: undefined,
      base: 'b',
    });
    // Typed from the schemas: a number is read as one, the group as one object (no cast anywhere).
    const sum: number = slice.timeoutMs + slice.limits.perUser + slice.limits.share;
    expect(sum).toBe(255);
    // A variable without a field reaches the slice only through build.
    expect(slice).not.toHaveProperty('EX_SHARE');
  });

  it('a module without build is its fields alone', () => {
    const plain = defineConfig({
      title: 'Plain',
      vars: { P_A: { field: 'a.b.c', schema: z.string().default('x'), doc: 'deep' } },
    });
    expect(buildSlice(plain, { P_A: 'y' }, undefined)).toEqual({ a: { b: { c: 'y' } } });
  });

  it('a field given twice (two declarations, or a declaration and build) stops the load, naming it', () => {
    const twice = defineConfig({
      title: 'Twice',
      vars: {
        T_A: { field: 'limits.max', schema: z.string(), doc: 'one' },
        T_B: { field: 'limits.max', schema: z.string(), doc: 'two' },
      },
    });
    expect(() => buildSlice(twice, { T_A: '1', T_B: '2' }, undefined)).toThrow(
      'config field "limits.max" is given twice',
    );
    const clash = defineConfig({
      title: 'Clash',
      vars: { C_A: { field: 'timeoutMs', schema: z.number(), doc: 'one' } },
      build: () => ({ timeoutMs: 1 }),
    });
    expect(() => buildSlice(clash, { C_A: 2 }, undefined)).toThrow('config field "timeoutMs" is given twice');
  });
});
