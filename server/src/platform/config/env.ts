import { z } from 'zod';

/**
 * The building blocks every config module (the platform's and each feature's `config.ts`) declares its
 * environment variables with, so a wrong value reads the same everywhere: one line naming the variable.
 */

/** A configuration the server cannot start with; main.ts prints its message as the one start-up line. */
export class ConfigError extends Error {}

/** Unset or blank = undefined. */
export const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

export const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      message: `${name} must be an http(s) URL`,
    })
    .transform((v) => v.replace(/\/+$/, ''));

/** A comma-separated list, entries trimmed, empty ones dropped (unset = empty list). */
export function commaList() {
  return z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
}

export function positiveInt(name: string) {
  return z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be an integer` })
    .positive({ error: `${name} must be positive` });
}

/** A whole number of at least 0 (0 switches the thing off). */
export function nonNegativeInt(name: string) {
  return z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be an integer` })
    .min(0, { error: `${name} must be 0 or more` });
}

/** The parsed values of one config module's variables. */
export type EnvOf<T extends z.ZodRawShape> = z.infer<z.ZodObject<T>>;
