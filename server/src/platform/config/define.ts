import type { z } from 'zod';

/**
 * One configuration variable, declared once: how it is read and checked (its zod schema, whose
 * `.default(…)` is its default and whose messages are the start-up errors), and what the README table and
 * `.env.example` say about it. Both documents are generated from these declarations (`npm run
 * env-example`; config-reference.test.ts fails when either is out of step).
 */
export type VarDecl<S extends z.ZodType = z.ZodType> = {
  schema: S;
  /** What it does: one README table cell (Markdown); `.env.example` shows it as plain text. */
  doc: string;
  /** The README's default cell when the schema has no literal default (`the system's`, `web/dist`). */
  shownDefault?: string;
  /** A value `.env.example` shows for a variable without a default (never a default itself). */
  example?: string;
};

export type VarDecls = Record<string, VarDecl>;

/** The parsed values of a module's variables, by variable name. */
export type ValuesOf<V extends VarDecls> = { [K in keyof V]: z.output<V[K]['schema']> };

/**
 * A config module: a feature's or a platform service's variables, under one title (the README's and
 * `.env.example`'s section), and `build`, which turns their parsed values into the typed slice
 * (`config.<key>`). `shared` is what the platform declares once for everyone (the server's values, the
 * Discord application and bot, the ffmpeg binaries: `SharedConfig`); the modules of that shared tier
 * have none (`void`).
 */
export type ConfigModule<V extends VarDecls = VarDecls, T = unknown, D = void> = {
  title: string;
  vars: V;
  // A method, so a list of modules of different variables type-checks (parameters are bivariant).
  build(values: ValuesOf<V>, shared: D): T;
};

/** Declares a config module (see `ConfigModule`); the identity, so the literal's types are kept. */
export function defineConfig<V extends VarDecls, T, D = void>(
  module: ConfigModule<V, T, D>,
): ConfigModule<V, T, D> {
  return module;
}

/** The typed slice a module builds. */
export type SliceOf<M> = M extends ConfigModule<VarDecls, infer T, infer _D> ? T : never;
