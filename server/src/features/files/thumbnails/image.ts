import type { Readable } from 'node:stream';
import { THUMBNAIL_MAX_PX } from '@guildhall/common';
import type { Sharp, SharpOptions } from 'sharp';

type SharpFactory = (options?: SharpOptions) => Sharp;
let loaded: Promise<SharpFactory> | null = null;

/** sharp (and libvips, ≈ 20 MB) is loaded on the first thumbnail, not at start. */
function loadSharp(): Promise<SharpFactory> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache would keep decoded images between jobs; threads: one job's worth at a time.
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loaded;
}

/** Pixels an image may have (a 20-megapixel photo is far inside; a decompression bomb is not). */
const MAX_INPUT_PIXELS = 120_000_000;

export type Thumbnail = { data: Buffer; width: number; height: number };

/**
 * A WebP of at most 320×320 from an image's bytes (turned upright by its EXIF orientation). libvips
 * runs on the libuv thread pool, off the event loop; SVG is rasterised by librsvg, which runs no scripts
 * and fetches nothing.
 */
export async function imageThumbnail(input: Readable | Buffer): Promise<Thumbnail> {
  const sharp = await loadSharp();
  const pipeline = sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
    .rotate()
    .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 72, effort: 2 });
  if (Buffer.isBuffer(input)) {
    pipeline.end(input);
  } else {
    input.once('error', (e) => pipeline.destroy(e));
    input.pipe(pipeline);
  }
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
