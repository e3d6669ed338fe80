import { spawn } from 'node:child_process';
import { createLimiter } from '../../platform/outbound/index.ts';

/**
 * Short ffprobe/ffmpeg jobs beside playback (durations for search results, loudness measurements): at most
 * two at a time in the whole process, each killed at its time limit, so a search over odd files or a
 * queue of long tracks can never take more than two processes' worth of CPU (issue 26).
 */
export const MEDIA_JOBS_AT_ONCE = 2;
const jobs = createLimiter(MEDIA_JOBS_AT_ONCE);

export type MediaJobResult = { output: string; timedOut: boolean; code: number | null };

/** Runs a command under the limit; `read` chooses which output is kept (up to 1 MB). Never rejects. */
export function runMediaJob(
  cmd: string,
  args: string[],
  o: { timeoutMs: number; read: 'stdout' | 'stderr' },
): Promise<MediaJobResult> {
  return jobs.run(
    () =>
      new Promise<MediaJobResult>((resolve) => {
        const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let timedOut = false;
        child.on('error', () => {}); // a missing binary: 'close' follows with no output
        child.stdout.on('error', () => {});
        child.stderr.on('error', () => {});
        child[o.read].setEncoding('utf8');
        child[o.read].on('data', (d: string) => {
          if (out.length < 1_000_000) out += d;
        });
        child[o.read === 'stdout' ? 'stderr' : 'stdout'].resume();
        const timer = setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, o.timeoutMs);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ output: out, timedOut, code });
        });
      }),
  );
}

/** How many jobs run and wait now (tests and the bench read it). */
export function mediaJobsInUse(): { active: number; waiting: number; peak: number } {
  return { active: jobs.active, waiting: jobs.waiting, peak: jobs.peak };
}
