import { defineConfig, mergeConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from '../../vitest.config.ts';

/**
 * The suite's own Vitest config with one change, for bench/pg-vs-sqlite.ts: each file runs in the
 * `postgres` and the `sqlite` project back to back (Vitest's own order runs whole projects one after the
 * other, by name: every PostgreSQL file first, while the machine may be doing other things), so a file's
 * two figures are taken under the same load.
 */
class Interleaved extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byFile = new Map<string, TestSpecification[]>();
    for (const f of await super.sort(files)) byFile.set(f.moduleId, [...(byFile.get(f.moduleId) ?? []), f]);
    return [...byFile.values()].flatMap((specs, i) =>
      // Which project goes first alternates from file to file.
      specs.sort((a, b) => (a.project.name < b.project.name ? -1 : 1) * (i % 2 === 0 ? 1 : -1)),
    );
  }
}

export default mergeConfig(base, defineConfig({ test: { sequence: { sequencer: Interleaved } } }));
