import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessSpawner } from './spawner.ts';

/** Reads a stream to its end as text. */
async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let out = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) out += chunk as string;
  return out;
}

/** Running (a zombie waiting for its parent to reap it counts as ended). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** Waits until `pid` is gone (a killed program is reaped by the helper, not by this process). */
async function gone(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((r) => setImmediate(r));
}

/** This process's own nice value (field 19 of /proc/self/stat). */
const readOwnNice = () => {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
};

let spawner: ProcessSpawner;
afterEach(async () => {
  await spawner.close();
});

describe('ProcessSpawner (programs started from a small helper process, not the server)', () => {
  it('hands over the program’s whole output, its stderr and its exit code', async () => {
    spawner = new ProcessSpawner();
    const p = await spawner.spawn('sh', [
      '-c',
      'head -c 300000 /dev/zero | tr "\\0" a; echo oops >&2; exit 3',
    ]);
    const [out, exit] = await Promise.all([text(p.output), p.exited]);
    expect(out.length).toBe(300_000);
    expect(exit).toEqual({ code: 3, signal: null });
    expect(p.text()).toBe('oops\n');
  });

  it('can hand over stderr instead (a program that reports on stderr), with stdout as text', async () => {
    spawner = new ProcessSpawner();
    const p = await spawner.spawn('sh', ['-c', 'echo to-out; head -c 200000 /dev/zero | tr "\\0" e >&2'], {
      output: 'stderr',
    });
    const [err] = await Promise.all([text(p.output), p.exited]);
    expect(err.length).toBe(200_000);
    expect(p.text()).toBe('to-out\n');
  });

  it('reports the end only once the program’s last stderr is in (words written after its exit are kept)', async () => {
    spawner = new ProcessSpawner();
    // The shell exits at once; what it started writes to the same stderr a moment later, then closes it.
    const p = await spawner.spawn('sh', ['-c', '(sleep 0.2; echo last words >&2) & exit 0']);
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(p.text()).toBe('last words\n');
  });

  it('the program is a child of the helper, not of the server', async () => {
    spawner = new ProcessSpawner();
    const p = await spawner.spawn('sleep', ['30']);
    const ppid = Number(
      execFileSync('ps', ['-o', 'ppid=', '-p', String(p.pid)])
        .toString()
        .trim(),
    );
    expect(ppid).not.toBe(process.pid);
    p.kill();
    expect((await p.exited).signal).toBe('SIGKILL');
  });

  it('a program can run below the server’s priority', async () => {
    spawner = new ProcessSpawner();
    const p = await spawner.spawn('sleep', ['30'], { nice: 10 });
    const stat = readFileSync(`/proc/${p.pid}/stat`, 'utf8');
    const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    expect(nice).toBe(Math.min(19, (readOwnNice() ?? 0) + 10));
    p.kill();
  });

  it('kill ends the program and closes its output at once', async () => {
    spawner = new ProcessSpawner();
    const p = await spawner.spawn('sh', ['-c', 'while :; do echo x; done']);
    await once(p.output, 'readable');
    p.kill();
    p.kill(); // twice is harmless
    // Killed, or stopped by its closed pipe first (the output is closed at once): ended by us either way.
    expect(['SIGKILL', 'SIGPIPE']).toContain((await p.exited).signal);
    expect(p.output.destroyed).toBe(true);
    expect(spawner.running).toBe(0);
  });

  it('a program started with stdin open waits for its input, then reads it to the end', async () => {
    spawner = new ProcessSpawner();
    const p = await spawner.spawn('sh', ['-c', 'read -r line; echo "got $line"; cat'], { stdin: true });
    p.input('first\nrest of it\n');
    expect(await text(p.output)).toBe('got first\nrest of it\n');
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });

  it('input to a program that has ended is ignored, and stdin stays closed for the others', async () => {
    spawner = new ProcessSpawner();
    const gone = await spawner.spawn('sh', ['-c', 'exit 0'], { stdin: true });
    await gone.exited;
    gone.input('nobody reads this');
    // `cat` with stdin closed ends at once with nothing (it would wait for ever on an open one).
    const closed = await spawner.spawn('cat', []);
    expect(await text(closed.output)).toBe('');
  });

  it('a missing program is a rejection, not a crash', async () => {
    spawner = new ProcessSpawner();
    await expect(spawner.spawn('/nonexistent/ffmpeg', [])).rejects.toThrow(/ENOENT/);
    // And the helper still works afterwards.
    const p = await spawner.spawn('echo', ['still here']);
    expect(await text(p.output)).toBe('still here\n');
  });

  it('a helper that dies reports its programs lost, closes their pipes, and is replaced on the next spawn', async () => {
    spawner = new ProcessSpawner();
    const p = await spawner.spawn('sleep', ['30']);
    const helperPid = Number(
      execFileSync('ps', ['-o', 'ppid=', '-p', String(p.pid)])
        .toString()
        .trim(),
    );
    process.kill(helperPid, 'SIGKILL');
    expect(await p.exited).toEqual({ code: null, signal: 'SIGKILL', lost: true });
    expect(p.output.destroyed).toBe(true);
    process.kill(p.pid, 'SIGKILL'); // the orphan (sleep never writes, so its closed pipe would not stop it)
    const q = await spawner.spawn('echo', ['new helper']);
    expect(await text(q.output)).toBe('new helper\n');
  });

  it('closing the spawner kills what it started and refuses new programs', async () => {
    spawner = new ProcessSpawner();
    const p = await spawner.spawn('sleep', ['30']);
    await spawner.close();
    await gone(p.pid);
    await expect(spawner.spawn('echo', ['x'])).rejects.toThrow(/closed/);
  });
});
