import { READINESS_CHECK_TIMEOUT_MS, type ReadinessCheck } from '@guildhall/common';

/**
 * A dependency probe: resolves when the dependency answers (with a string: a line worth showing),
 * throws (or times out) when it does not.
 */
export type ReadinessProbe = () => Promise<unknown>;

/**
 * The dependencies /readyz asks. The platform adds the database and Redis; features add what they own
 * (the files feature its blob store), so the platform never reaches into a feature.
 */
export type ReadinessOptions = {
  /** A failure degrades one feature without failing readiness (music, OSINT sources). */
  optional?: boolean;
};

export type ReadinessChecks = {
  add(name: string, probe: ReadinessProbe, options?: ReadinessOptions): void;
  run(): Promise<Record<string, ReadinessCheck>>;
};

export function createReadinessChecks(timeoutMs = READINESS_CHECK_TIMEOUT_MS): ReadinessChecks {
  const probes = new Map<string, { probe: ReadinessProbe; optional: boolean }>();
  return {
    add(name, probe, options = {}) {
      probes.set(name, { probe, optional: options.optional === true });
    },
    async run() {
      const entries = await Promise.all(
        [...probes].map(async ([name, { probe, optional }]) => {
          const check = await settle(probe, timeoutMs);
          return [name, optional ? { ...check, optional } : check] as const;
        }),
      );
      return Object.fromEntries(entries);
    },
  };
}

async function settle(probe: ReadinessProbe, timeoutMs: number): Promise<ReadinessCheck> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const detail = await Promise.race([probe(), timeout]);
    return typeof detail === 'string' ? { ok: true, detail } : { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}
