import { createLimiter } from '../../platform/outbound/limiter.ts';
import type { ProcessSpawner, SpawnedProcess } from '../../platform/process/index.ts';

/**
 * Short ffprobe/ffmpeg jobs beside playback (durations for search results, loudness measurements): at most
 * two at a time in the whole process, each killed at its time limit, so a search over odd files or a
 * queue of long tracks can never take more than two processes' worth of CPU (issue 26).
 */
export const MEDIA_JOBS_AT_ONCE = 2;
const jobs = createLimiter(MEDIA_JOBS_AT_ONCE);

export type MediaJobResult = { output: string; timedOut: boolean; code: number | null };

/**
 * Runs a command under the limit, through the platform's process spawner (a fork from the server would
 * stall its event loop); `read` chooses which output is kept (up to 1 MB). Never rejects: a command that
 * cannot start at all gives no output and no exit code.
 */
export function runMediaJob(
  processes: ProcessSpawner,
  cmd: string,
  args: string[],
  o: { timeoutMs: number; read: 'stdout' | 'stderr'; nice?: number },
): Promise<MediaJobResult> {
  return jobs.run(async () => {
    let child: SpawnedProcess;
    try {
      child = await processes.spawn(cmd, args, { output: o.read, nice: o.nice ?? 0 });
    } catch {
      return { output: '', timedOut: false, code: null }; // a missing binary
    }
    let out = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, o.timeoutMs);
    child.output.setEncoding('utf8');
    child.output.on('data', (d: string) => {
      if (out.length < 1_000_000) out += d;
    });
    const exit = await child.finished;
    clearTimeout(timer);
    return { output: out, timedOut, code: exit.code };
  });
}

/** How many jobs run and wait now (tests and the bench read it). */
export function mediaJobsInUse(): { active: number; waiting: number; peak: number } {
  return { active: jobs.active, waiting: jobs.waiting, peak: jobs.peak };
}
