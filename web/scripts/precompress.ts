import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Files worth compressing: text. Images other than SVG, fonts in woff2 and archives are compressed already. */
const TEXT = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/i;

export type Precompressed = { file: string; raw: number; br: number | null; gzip: number | null };

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to every text file under
 * `dir`, once at build time, so the server sends them as they are (no compression per request) and a
 * proxy passes them through. A variant is skipped when it would not be smaller than the file.
 */
export function precompressDir(dir: string): Precompressed[] {
  const out: Precompressed[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !TEXT.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    // Dot folders (Vite's .vite/manifest.json) are build metadata the server never sends.
    if (
      path
        .relative(dir, file)
        .split(path.sep)
        .some((part) => part.startsWith('.'))
    )
      continue;
    const raw = fs.readFileSync(file);
    const result: Precompressed = { file: path.relative(dir, file), raw: raw.length, br: null, gzip: null };
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gz = gzipSync(raw, { level: 9 });
    if (br.length < raw.length) {
      fs.writeFileSync(`${file}.br`, br);
      result.br = br.length;
    }
    if (gz.length < raw.length) {
      fs.writeFileSync(`${file}.gz`, gz);
      result.gzip = gz.length;
    }
    out.push(result);
  }
  return out;
}

/** A one-line summary for the build log. */
export function describePrecompressed(files: Precompressed[]): string {
  const raw = files.reduce((a, f) => a + f.raw, 0);
  const br = files.reduce((a, f) => a + (f.br ?? f.raw), 0);
  const gz = files.reduce((a, f) => a + (f.gzip ?? f.raw), 0);
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  return `precompressed ${files.length} text files: ${kb(raw)} → ${kb(br)} brotli, ${kb(gz)} gzip`;
}
