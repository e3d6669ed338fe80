import { type ChildProcess, fork } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { SpawnerEvent, SpawnerRequest } from './spawner-child.ts';

/**
 * The spawner's program: the TypeScript source in development and tests, the bundled spawner-child.mjs
 * beside the server bundle in production (server/bundle.ts lists it as an entry).
 */
const CHILD_URL = import.meta.url.endsWith('.ts')
  ? new URL('./spawner-child.ts', import.meta.url)
  : new URL('./spawner-child.mjs', import.meta.url);

/** Kept of a program's other stream (it is for the log when something fails). */
const TEXT_KEPT = 4000;

export type ProcessExit = {
  code: number | null;
  signal: string | null;
  /** The spawner itself died: the program's fate is unknown (its output pipe was closed, so it stops). */
  lost?: boolean;
};

/** A program started through the spawner: its output, its other stream so far, how to stop it, when it ended. */
export type SpawnedProcess = {
  pid: number;
  /** The program's stdout (or stderr, when asked), read here directly: the pipe itself was handed over. */
  output: Readable;
  /** The other stream (stderr, or stdout), up to a few KB: for the log. */
  text: () => string;
  /**
   * Writes `text` to the program's stdin and closes it (a program started with `stdin: true`; once). A
   * program that has ended meanwhile ignores it.
   */
  input: (text: string) => void;
  /** SIGKILL; the output pipe is closed at once. Safe to call more than once, or after the end. */
  kill: () => void;
  /** The program has exited (its output may still hold unread bytes). */
  exited: Promise<ProcessExit>;
  /** The program has exited and its output is closed (read to its end, or destroyed). */
  finished: Promise<ProcessExit>;
};

type Entry = {
  started: boolean;
  exited: Promise<ProcessExit>;
  resolveStart: (p: SpawnedProcess) => void;
  rejectStart: (e: Error) => void;
  resolveExit: (e: ProcessExit) => void;
  output: Readable | null;
  text: string;
};

/**
 * Starts programs (ffmpeg) from a small helper process instead of the server. Node forks to spawn, and a
 * fork copies the whole process's page tables while the event loop waits: about 4 ms per 100 MB of the
 * server's memory (measured: 8–16 ms at 260 MB, 30–40 ms at 900 MB), which every guild's voice packets,
 * every socket and every request would wait for at each seek, effect or skip. The helper, tens of MB,
 * forks in a millisecond on its own thread of execution, and hands the program's output pipe over.
 *
 * The helper starts on first use (or `warmUp()`), is restarted on the next spawn if it ever dies (the
 * programs it had running are reported `lost` and their pipes closed), and ends on `close()`: it kills
 * what it started when the server goes away, even by SIGKILL (its IPC channel closes).
 */
export class ProcessSpawner {
  private child: ChildProcess | null = null;
  private readonly entries = new Map<number, Entry>();
  private nextId = 1;
  private closed = false;

  /** Starts the helper now (so the first program does not wait for it). */
  warmUp(): void {
    if (!this.closed) this.helper();
  }

  /**
   * Starts `cmd` with `args`, `nice` steps below the server's priority (0: the same). Its `output` stream
   * (stdout unless asked) is handed over whole; the other comes as a few KB of text. Stdin is closed unless
   * `stdin` asks for it to stay open until `input` (a program started ahead that learns its work later).
   * Rejects when the program cannot be started (a missing binary) or the helper cannot run.
   */
  spawn(
    cmd: string,
    args: string[],
    o: { nice?: number; output?: 'stdout' | 'stderr'; stdin?: boolean } = {},
  ): Promise<SpawnedProcess> {
    if (this.closed) return Promise.reject(new Error('the process spawner is closed'));
    let helper: ChildProcess;
    try {
      helper = this.helper();
    } catch (e) {
      return Promise.reject(e as Error);
    }
    const id = this.nextId++;
    let resolveExit!: (e: ProcessExit) => void;
    const exited = new Promise<ProcessExit>((r) => {
      resolveExit = r;
    });
    return new Promise<SpawnedProcess>((resolveStart, rejectStart) => {
      this.entries.set(id, {
        started: false,
        exited,
        resolveStart,
        rejectStart,
        resolveExit,
        output: null,
        text: '',
      });
      this.request(helper, {
        op: 'spawn',
        id,
        cmd,
        args,
        nice: o.nice ?? 0,
        output: o.output ?? 'stdout',
        stdin: o.stdin === true,
      });
    });
  }

  /** Ends the helper (and so every program it started) and refuses further spawns. */
  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (!child) return;
    const gone = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    // Closing the channel makes the helper kill what it started and exit; SIGKILL if it does not.
    if (child.connected) child.disconnect();
    else child.kill('SIGKILL');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await gone;
    clearTimeout(timer);
  }

  /** How many programs started here are running now (an entry is dropped when its program ends). */
  get running(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.started) n++;
    return n;
  }

  private helper(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(CHILD_URL, [], {
      // Its own small heap and no inherited flags (inspectors, test runners' loaders).
      execArgv: ['--max-old-space-size=32'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
    });
    this.child = child;
    // It must never keep the server alive on its own, nor its channel.
    child.unref();
    child.channel?.unref();
    child.on('message', (m: SpawnerEvent, handle?: unknown) => this.onEvent(m, handle));
    child.on('error', () => this.helperGone(child));
    child.once('exit', () => this.helperGone(child));
    return child;
  }

  private request(helper: ChildProcess, m: SpawnerRequest): void {
    if (!helper.connected) {
      this.helperGone(helper);
      return;
    }
    helper.send(m, (err) => {
      if (err) this.helperGone(helper);
    });
  }

  private onEvent(m: SpawnerEvent, handle: unknown): void {
    const entry = this.entries.get(m.id);
    if (!entry) {
      (handle as Readable | undefined)?.destroy();
      return;
    }
    switch (m.type) {
      case 'spawned': {
        const output = handle as Readable;
        output.on('error', () => {}); // a killed program's pipe may end in ECONNRESET
        entry.output = output;
        entry.started = true;
        const closed = new Promise<void>((resolve) => {
          output.once('close', () => resolve());
        });
        entry.resolveStart({
          pid: m.pid,
          output,
          text: () => entry.text,
          input: (text) => this.input(m.id, text),
          kill: () => this.kill(m.id, output),
          exited: entry.exited,
          finished: Promise.all([entry.exited, closed]).then(([exit]) => exit),
        });
        return;
      }
      case 'text':
        if (entry.text.length < TEXT_KEPT) entry.text += m.text.slice(0, TEXT_KEPT - entry.text.length);
        return;
      case 'error':
        this.entries.delete(m.id);
        entry.rejectStart(new Error(m.message));
        return;
      case 'exit':
        this.entries.delete(m.id);
        entry.resolveExit({ code: m.code, signal: m.signal });
        return;
    }
  }

  private input(id: number, text: string): void {
    const helper = this.child;
    if (helper && this.entries.has(id)) this.request(helper, { op: 'input', id, text });
  }

  private kill(id: number, output: Readable): void {
    output.destroy();
    if (!this.entries.has(id)) return; // ended already
    const helper = this.child;
    if (helper) this.request(helper, { op: 'kill', id });
  }

  /** The helper died (or could not start): what it had is lost; the next spawn starts a new one. */
  private helperGone(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = null;
    for (const [id, entry] of this.entries) {
      this.entries.delete(id);
      entry.output?.destroy();
      if (entry.started) entry.resolveExit({ code: null, signal: 'SIGKILL', lost: true });
      else entry.rejectStart(new Error('the process spawner stopped'));
    }
  }
}
