import { spawn } from 'node:child_process';

/**
 * A track's duration in whole seconds, 0 when unknown. ffprobe reads it from a seekable HTTP input
 * (the container header, or the last Ogg page, or an MP3's Xing/bitrate estimate); when it still does
 * not say, ffmpeg decodes the file to count it (fast for audio; the library caches the answer per file).
 */
export async function probeDuration(
  ffprobePath: string,
  url: string,
  ffmpegPath = 'ffmpeg',
): Promise<number> {
  const whitelist = ['-protocol_whitelist', 'http,tcp'];
  const header = Number.parseFloat(
    await run(
      ffprobePath,
      ['-v', 'error', ...whitelist, '-show_entries', 'format=duration', '-of', 'csv=p=0', url],
      'stdout',
    ),
  );
  if (Number.isFinite(header) && header > 0) return Math.round(header);
  const log = await run(
    ffmpegPath,
    ['-hide_banner', '-nostats', ...whitelist, '-i', url, '-f', 'null', '-'],
    'stderr',
  );
  const last = [...log.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)].at(-1);
  if (!last) return 0;
  return Math.round(Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]));
}

async function run(cmd: string, args: string[], read: 'stdout' | 'stderr'): Promise<string> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child[read].setEncoding('utf8');
  child[read].on('data', (d: string) => {
    if (out.length < 1_000_000) out += d;
  });
  child[read === 'stdout' ? 'stderr' : 'stdout'].resume();
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  return out;
}
