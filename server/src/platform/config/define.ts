import type { z } from 'zod';

/**
 * One configuration variable, declared once: where its value sits in the module's slice (`field`), how
 * it is read and checked (its zod schema, whose `.default(…)` is its default, whose messages are the
 * start-up errors and whose output type is the field's type), and what the README table and
 * `.env.example` say about it. Both documents are generated from these declarations (`npm run
 * env-example`; config-reference.test.ts fails when either is out of step).
 */
export type VarDecl<S extends z.ZodType = z.ZodType> = {
  /**
   * The field of the slice (`config.<module>.<field>`) that holds the parsed value: `'timeoutMs'`, or a
   * dotted path into a nested group, `'uploads.idleTimeoutMs'`. Its type is the schema's output; a value
   * that may be undefined is an optional field. Without `field`, only the module's `build` reads it.
   */
  field?: string;
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
 * `.env.example`'s section). Its slice (`config.<key>`) is made of the declared `field`s; `build`, when a
 * module has one, adds only what no single variable gives: a value computed from several variables,
 * a check across them, or a value of the platform's (`shared`: the server's values, the Discord
 * application and bot, the ffmpeg binaries: `SharedConfig`; the modules of that shared tier have none).
 */
export type ConfigModule<V extends VarDecls = VarDecls, B = unknown, D = void> = {
  title: string;
  vars: V;
  // A method, so a list of modules of different variables type-checks (parameters are bivariant).
  build?(values: ValuesOf<V>, shared: D): B;
};

/**
 * Declares a config module (see `ConfigModule`); the identity, so the literal's types are kept (`const`:
 * each `field` keeps its literal text, which the slice's type is made from).
 */
export function defineConfig<const V extends VarDecls, B = unknown, D = void>(
  module: ConfigModule<V, B, D>,
): ConfigModule<V, B, D> {
  return module;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

/** `{ a: { b: T } }` for the path `'a.b'`; a value that may be undefined is an optional field. */
type AtPath<P extends string, T> = P extends `${infer Head}.${infer Rest}`
  ? { [K in Head]: AtPath<Rest, T> }
  : undefined extends T
    ? { [K in P]?: T }
    : { [K in P]: T };

/** One object type out of nested intersections, so a hover shows the slice as one shape. */
type Expand<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]: Expand<T[K]> } : T;

/** The slice's fields that the declarations name (`field`), typed by their schemas' outputs. */
export type FieldsOf<V extends VarDecls> = Expand<
  UnionToIntersection<
    {
      [K in keyof V]: V[K] extends { field: infer F extends string }
        ? AtPath<F, z.output<V[K]['schema']>>
        : never;
    }[keyof V]
  >
>;

/** The typed slice a module gives: its declared fields, and what its `build` adds. */
export type SliceOf<M> =
  M extends ConfigModule<infer V, infer B, infer _D>
    ? unknown extends B
      ? FieldsOf<V>
      : Expand<FieldsOf<V> & B>
    : never;

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/**
 * Puts `from` into `into`, group by group; a field set twice (two declarations naming it, or a
 * declaration and `build`) is a mistake in the module, caught at the first load.
 */
function mergeInto(into: Tree, from: Tree, where: string): void {
  for (const [key, value] of Object.entries(from)) {
    const path = where ? `${where}.${key}` : key;
    if (!(key in into)) into[key] = value;
    else if (isTree(into[key]) && isTree(value)) mergeInto(into[key] as Tree, value, path);
    else throw new Error(`config field "${path}" is given twice`);
  }
}

/**
 * A module's slice out of the parsed values: each declared `field`, then what `build` adds (`shared`
 * is what the module's `build` receives).
 */
export function buildSlice<V extends VarDecls, B, D>(
  module: ConfigModule<V, B, D>,
  values: ValuesOf<V>,
  shared: D,
): SliceOf<ConfigModule<V, B, D>> {
  const slice: Tree = {};
  for (const [name, decl] of Object.entries(module.vars)) {
    if (decl.field === undefined) continue;
    const path = decl.field.split('.');
    const leaf = path.pop() as string;
    // The leaf's group, built as a one-field tree and merged, so the collision check is one place.
    let tree: Tree = { [leaf]: (values as Tree)[name] };
    for (let i = path.length - 1; i >= 0; i--) tree = { [path[i] as string]: tree };
    mergeInto(slice, tree, '');
  }
  if (module.build) {
    const built = module.build(values, shared);
    if (isTree(built)) mergeInto(slice, built, '');
  }
  return slice as SliceOf<ConfigModule<V, B, D>>;
}
