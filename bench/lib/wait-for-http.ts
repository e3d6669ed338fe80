import type { ChildProcess } from 'node:child_process';

/** Waits until `url` answers 2xx (up to 30 s); fails at once if the server process exits first. */
export async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start within 30 s');
}
