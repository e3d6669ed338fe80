import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * A track's duration in whole seconds, 0 when unknown. ffprobe reads the container's header from stdin;
 * when the header does not say (a WAV written to a pipe, a bare MP3 stream), ffmpeg decodes the file to
 * count it (fast for audio, and the library caches the answer per file).
 */
export async function probeDuration(
  ffprobePath: string,
  open: () => Promise<Readable>,
  ffmpegPath = 'ffmpeg',
): Promise<number> {
  const header = Number.parseFloat(
    await run(
      ffprobePath,
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', 'pipe:0'],
      open,
      'stdout',
    ),
  );
  if (Number.isFinite(header) && header > 0) return Math.round(header);
  const log = await run(
    ffmpegPath,
    ['-hide_banner', '-nostats', '-i', 'pipe:0', '-f', 'null', '-'],
    open,
    'stderr',
  );
  const times = [...log.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)];
  const last = times.at(-1);
  if (!last) return 0;
  return Math.round(Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]));
}

async function run(cmd: string, args: string[], open: () => Promise<Readable>, read: 'stdout' | 'stderr') {
  const source = await open();
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => {}); // it may stop reading once it knows
  source.on('error', () => child.stdin.destroy());
  source.pipe(child.stdin);
  let out = '';
  child[read].setEncoding('utf8');
  child[read].on('data', (d: string) => {
    if (out.length < 1_000_000) out += d;
  });
  child[read === 'stdout' ? 'stderr' : 'stdout'].resume();
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  source.destroy();
  return out;
}
