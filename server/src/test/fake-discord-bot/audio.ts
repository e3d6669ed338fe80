import OpusScript from 'opusscript';
import { isSilenceFrame, type ReceivedPacket } from './rtp.ts';

export const SAMPLE_RATE = 48_000;

/** Decodes the packets' Opus (48 kHz stereo, silence frames skipped) into mono samples in −1..1. */
export function decodeToMono(packets: ReceivedPacket[]): Float32Array {
  const decoder = new OpusScript(SAMPLE_RATE, 2, OpusScript.Application.AUDIO);
  const parts: Int16Array[] = [];
  try {
    for (const p of packets) {
      if (isSilenceFrame(p.opus)) continue;
      const pcm = decoder.decode(p.opus);
      parts.push(new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 2));
    }
  } finally {
    decoder.delete();
  }
  const frames = parts.reduce((n, p) => n + p.length / 2, 0);
  const mono = new Float32Array(frames);
  let o = 0;
  for (const p of parts) {
    for (let i = 0; i < p.length; i += 2) mono[o++] = ((p[i] ?? 0) + (p[i + 1] ?? 0)) / 65536;
  }
  return mono;
}

/** Goertzel power of one frequency over the samples (the test listener's, the DSP tests' and the bench's). */
export function powerAt(samples: Float32Array, freq: number, rate: number): number {
  const coeff = 2 * Math.cos((2 * Math.PI * freq) / rate);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const s0 = (samples[i] ?? 0) + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

/** The dominant frequency between `fromHz` and `toHz`: a 5 Hz scan, then a 0.25 Hz scan around its peak. */
export function dominantFrequency(
  samples: Float32Array,
  fromHz = 50,
  toHz = 2000,
  rate = SAMPLE_RATE,
): number {
  // Downsample by 4 (a crude average is enough below 2 kHz at 48 kHz) to keep the scans fast.
  const step = 4;
  const ds = new Float32Array(Math.floor(samples.length / step));
  for (let i = 0; i < ds.length; i++) {
    let sum = 0;
    for (let k = 0; k < step; k++) sum += samples[i * step + k] ?? 0;
    ds[i] = sum / step;
  }
  const r = rate / step;
  const scan = (from: number, to: number, inc: number) => {
    let best = from;
    let bestPower = -1;
    for (let f = from; f <= to; f += inc) {
      const p = powerAt(ds, f, r);
      if (p > bestPower) {
        bestPower = p;
        best = f;
      }
    }
    return best;
  };
  const coarse = scan(fromHz, toHz, 5);
  return scan(coarse - 5, coarse + 5, 0.25);
}

/** RMS level in dBFS. */
export function rmsDb(samples: Float32Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return 10 * Math.log10(sum / Math.max(1, samples.length) + 1e-12);
}
