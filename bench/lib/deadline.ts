import type { ChildProcess } from 'node:child_process';

/**
 * Ends a benchmark that hangs: after `ms` it kills the servers it started (`children`, filled as they
 * start) and exits with status 2, so a stuck run never holds a machine.
 */
export function giveUpAfter(name: string, ms: number, children: ChildProcess[]): void {
  const timer = setTimeout(() => {
    console.error(`${name}: took too long, giving up`);
    for (const c of children) c.kill('SIGKILL');
    process.exit(2);
  }, ms);
  timer.unref();
}
