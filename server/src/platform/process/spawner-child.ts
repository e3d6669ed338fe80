/**
 * The process spawner's own small process (see spawner.ts): it starts programs on the server's behalf and
 * hands their output pipes over, so the server's event loop never pays for fork(). Only `node:` modules
 * here: the process stays a few tens of megabytes, whose fork costs about a millisecond.
 *
 * Protocol (IPC, in order): the server sends `spawn`, `input` and `kill`; this process answers `spawned` with
 * the program's output pipe (its stdout, or its stderr when asked) as the message's handle, the other stream
 * as `text`, `error` when the program cannot be started, and `exit` when it has ended. Stdin is closed, or
 * (`stdin: true`) kept open until one `input` writes its text and closes it. When the server goes away (the IPC channel
 * closes), every program started here is killed and this process exits.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import type { Readable, Writable } from 'node:stream';

export type SpawnerRequest =
  | {
      op: 'spawn';
      id: number;
      cmd: string;
      args: string[];
      nice: number;
      output: 'stdout' | 'stderr';
      stdin?: boolean;
    }
  | { op: 'input'; id: number; text: string }
  | { op: 'kill'; id: number };

export type SpawnerEvent =
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'text'; id: number; text: string }
  | { type: 'error'; id: number; message: string }
  | { type: 'exit'; id: number; code: number | null; signal: string | null };

/** The other stream forwarded per program: enough for a log line, never a flood over IPC. */
const TEXT_LIMIT = 8000;

const programs = new Map<number, ChildProcessByStdio<Writable | null, Readable, Readable>>();

function send(event: SpawnerEvent, handle?: Readable): void {
  if (!process.connected) return;
  // biome-ignore lint/suspicious/noExplicitAny: process.send's handle parameter is typed as an internal handle union; a pipe's socket is one of them
  process.send?.(event, handle as any, undefined, () => {});
}

function start(
  id: number,
  cmd: string,
  args: string[],
  nice: number,
  output: 'stdout' | 'stderr',
  stdin: boolean,
): void {
  const child = spawn(cmd, args, {
    stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  }) as ChildProcessByStdio<Writable | null, Readable, Readable>; // stdin is null when 'ignore'd
  // A program that exits before reading its input makes the write fail (EPIPE): its exit says the rest.
  child.stdin?.on('error', () => {});
  programs.set(id, child);
  if (nice > 0 && child.pid) {
    try {
      setPriority(child.pid, Math.min(19, getPriority() + nice)); // relative to the server's (inherited)
    } catch {
      // Gone already, or not allowed: it runs at the default priority.
    }
  }
  // Node starts reading a child's stdout as soon as it makes the stream; what this side read would be lost
  // to the server. Stopped before the event loop runs again, so no byte is read here: the program cannot
  // have written yet, and the first read could only happen in the next poll.
  const handed = output === 'stderr' ? child.stderr : child.stdout;
  const other = output === 'stderr' ? child.stdout : child.stderr;
  const pipe = (handed as unknown as { _handle?: { readStop?: () => number; reading?: boolean } })._handle;
  pipe?.readStop?.();
  if (pipe) pipe.reading = false;
  let textSent = 0;
  child.stdout.on('error', () => {});
  child.stderr.on('error', () => {});
  other.setEncoding('utf8');
  other.on('data', (text: string) => {
    if (textSent >= TEXT_LIMIT) return;
    const part = text.slice(0, TEXT_LIMIT - textSent);
    textSent += part.length;
    send({ type: 'text', id, text: part });
  });
  let started = false;
  child.once('spawn', () => {
    started = true;
    // The pipe goes to the server (and is closed here once sent): only the server reads it.
    send({ type: 'spawned', id, pid: child.pid ?? 0 }, handed);
  });
  child.on('error', (e) => {
    if (started) return;
    // A program that could not start may never emit 'exit': forget it now.
    programs.delete(id);
    send({ type: 'error', id, message: e.message });
  });
  // The end is reported once the program has exited AND its other stream is all forwarded (a program's
  // last words, often the reason it failed, can come after 'exit'). Not 'close': the handed pipe is the
  // server's, so this side never sees the child close.
  let exit: { code: number | null; signal: string | null } | null = null;
  let otherDone = false;
  const reportEnd = () => {
    if (!exit || !otherDone) return;
    programs.delete(id);
    send({ type: 'exit', id, ...exit });
  };
  other.once('close', () => {
    otherDone = true;
    reportEnd();
  });
  child.once('exit', (code, signal) => {
    exit = { code, signal };
    reportEnd();
  });
}

process.on('message', (m: SpawnerRequest) => {
  if (m.op === 'spawn') start(m.id, m.cmd, m.args, m.nice, m.output, m.stdin === true);
  else if (m.op === 'input') programs.get(m.id)?.stdin?.end(m.text);
  else if (m.op === 'kill') programs.get(m.id)?.kill('SIGKILL');
});

process.on('disconnect', () => {
  for (const child of programs.values()) child.kill('SIGKILL');
  process.exit(0);
});
