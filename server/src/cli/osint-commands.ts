import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Output } from './admin-commands.ts';

export const OSINT_USAGE = `  osint self-check [--dry-run]                check every OSINT site with its known accounts and a random
                                              name; disable the sites that answer wrongly (docs/osint.md)`;

/** `npm run admin -- osint self-check`: the site list's self-check (docs/osint.md, "Self-check"). */
export async function runOsintCommand(db: Db, config: Config, argv: string[], io: Output): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    io.err(`Error: ${(e as Error).message}\n\nUsage:\n${OSINT_USAGE}`);
    return 2;
  }
  if (parsed.positionals.join(' ') !== 'self-check') {
    io.err(`Usage:\n${OSINT_USAGE}`);
    return 2;
  }
  const dryRun = parsed.values['dry-run'] === true;
  // Loaded only for this command: the site list and the fetcher cost every other command nothing.
  const { runSelfCheck } = await (await import('../features/osint/index.ts')).loadSelfCheck();
  const { rows, disabled, enabled } = await runSelfCheck(db, config, { dryRun });
  for (const r of rows.filter((x) => x.verdict !== 'ok'))
    io.out(`${r.verdict.padEnd(8)} ${r.site}: ${r.detail}`);
  const count = (v: string) => rows.filter((r) => r.verdict === v).length;
  io.out(
    `${rows.length} sites: ${count('ok')} ok, ${count('failed')} failed, ${count('unknown')} could not be checked. ` +
      (dryRun ? 'Dry run: nothing changed.' : `Disabled ${disabled}, enabled again ${enabled}.`),
  );
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, options: { 'dry-run': { type: 'boolean' } } });
}
