import { READINESS_CHECK_TIMEOUT_MS, type ReadinessCheck } from '@guildhall/common';

/** A dependency probe: resolves when the dependency answers, throws (or times out) when it does not. */
export type ReadinessProbe = () => Promise<void>;

/**
 * The dependencies /readyz asks. The platform adds the database and Redis; features add what they own
 * (the files feature its blob store), so the platform never reaches into a feature.
 */
export type ReadinessChecks = {
  add(name: string, probe: ReadinessProbe): void;
  run(): Promise<Record<string, ReadinessCheck>>;
};

export function createReadinessChecks(timeoutMs = READINESS_CHECK_TIMEOUT_MS): ReadinessChecks {
  const probes = new Map<string, ReadinessProbe>();
  return {
    add(name, probe) {
      probes.set(name, probe);
    },
    async run() {
      const entries = await Promise.all(
        [...probes].map(async ([name, probe]) => [name, await settle(probe, timeoutMs)] as const),
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
    await Promise.race([probe(), timeout]);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}
