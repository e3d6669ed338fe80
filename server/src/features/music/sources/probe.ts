import type { ProcessSpawner } from '../../../platform/process/index.ts';
import { runMediaJob } from '../media-jobs.ts';

/** A probe that takes longer than this is given up (the duration shows as unknown). */
export const PROBE_TIMEOUT_MS = 5_000;

/**
 * A track's duration in whole seconds, 0 when unknown. ffprobe reads only what the duration needs from
 * the seekable HTTP input: the container header, or for Ogg the last page (a ranged read at the end);
 * when neither says, the size divided by the bit rate it found. It never decodes the file: a 10-hour
 * live-recorded Matroska once cost two full decodes per search (issue 26). Runs under the media-job
 * limit (two at once) and a time limit.
 */
export async function probeDuration(
  processes: ProcessSpawner,
  ffprobePath: string,
  url: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<number> {
  const { output, timedOut } = await runMediaJob(
    processes,
    ffprobePath,
    [
      '-v',
      'error',
      '-protocol_whitelist',
      'http,tcp',
      // Stop reading the stream's start after 1 MB / 2 s of media: enough for any header.
      '-probesize',
      '1000000',
      '-analyzeduration',
      '2000000',
      '-show_entries',
      'format=duration,size,bit_rate',
      '-of',
      'default=noprint_wrappers=1',
      url,
    ],
    { timeoutMs, read: 'stdout' },
  );
  if (timedOut) return 0;
  const field = (name: string) =>
    Number.parseFloat(new RegExp(`^${name}=(.+)$`, 'm').exec(output)?.[1] ?? '');
  const duration = field('duration');
  if (Number.isFinite(duration) && duration > 0) return Math.round(duration);
  const size = field('size');
  const bitRate = field('bit_rate');
  if (Number.isFinite(size) && Number.isFinite(bitRate) && size > 0 && bitRate > 0) {
    return Math.round((size * 8) / bitRate);
  }
  return 0;
}
