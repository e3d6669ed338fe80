import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../node-flags.ts';

const MAIN = path.resolve(import.meta.dirname, '../main.ts');

/** A real server process (`node server/src/main.ts`, as production runs it) started by a test. */
export type ServerProcess = {
  /** Its base URL, read from its "Server listening at" line. */
  url: string;
  proc: ChildProcess;
  /** Resolves when the process has exited (its code, or the signal that ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it wrote so far (stdout and stderr): its JSON log lines, for a failure's message. */
  output: () => string;
  /** SIGTERM (a deploy's graceful stop), resolved once it has exited. */
  stop: () => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL (kill -9: nothing of it runs again), resolved once it has exited. */
  kill: () => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/**
 * The server processes a suite started; `killAll` in its afterAll ends whatever is still running,
 * whatever the tests did.
 */
export class ServerProcesses {
  /** Every process started and not yet exited (listening or not). */
  private readonly running = new Set<ChildProcess>();

  /**
   * Starts the server with `env` over the test process's environment (PORT=0: the system picks the
   * port, read back from the log; a port found free first and bound later was once taken meanwhile).
   * Rejects with its output if it exits before it listens.
   */
  start(env: Record<string, string>): Promise<ServerProcess> {
    const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, MAIN], {
      env: { ...process.env, LOG_LEVEL: 'info', ...env, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.running.add(proc);
    let out = '';
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      proc.once('exit', (code, signal) => {
        this.running.delete(proc);
        resolve({ code, signal });
      }),
    );
    const end = (signal: NodeJS.Signals) => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    };
    let listening = false;
    return new Promise((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        out = keepTail(out + chunk.toString());
        if (listening) return;
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (!m?.[1]) return;
        listening = true;
        const server: ServerProcess = {
          url: m[1],
          proc,
          exited,
          output: () => out,
          stop: () => end('SIGTERM'),
          kill: () => end('SIGKILL'),
        };
        resolve(server);
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', (chunk: Buffer) => {
        out = keepTail(out + chunk.toString());
      });
      void exited.then(({ code, signal }) =>
        reject(new Error(`server exited (${code ?? signal}) before listening:\n${out.slice(-4000)}`)),
      );
    });
  }

  /** SIGKILL to every process still running, resolved once all have exited. */
  async killAll(): Promise<void> {
    await Promise.all(
      [...this.running].map(
        (proc) =>
          new Promise<void>((resolve) => {
            proc.once('exit', () => resolve());
            proc.kill('SIGKILL');
          }),
      ),
    );
  }
}

/** The last 256 KiB of a process's output: enough for a failure's story, bounded however long it runs. */
function keepTail(text: string): string {
  return text.length > 262_144 ? text.slice(-262_144) : text;
}
