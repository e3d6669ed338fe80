import { spawnSync } from 'node:child_process';
import { FLAT_EQ } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { powerAt } from '../../../test/fake-discord-bot/audio.ts';
import { bassShelf, peaking, SAMPLE_RATE, StereoBiquad } from './biquad.ts';
import { BASS_BOOST, FRAME, LiveChain, type LiveSettings, RAMP_FRAMES, SOURCE_RAMP_FRAMES } from './chain.ts';
import { Echo } from './echo.ts';
import { LIMIT } from './gain.ts';
import { Pulsator } from './pulsator.ts';
import { Resampler } from './resampler.ts';

/** `seconds` of interleaved stereo: `f(t, channel)` sampled at 48 kHz. */
function signal(seconds: number, f: (t: number, ch: number) => number): Float32Array {
  const n = Math.round(seconds * SAMPLE_RATE);
  const out = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    out[i * 2] = f(i / SAMPLE_RATE, 0);
    out[i * 2 + 1] = f(i / SAMPLE_RATE, 1);
  }
  return out;
}
const sine =
  (hz: number, amp = 0.25) =>
  (t: number) =>
    amp * Math.sin(2 * Math.PI * hz * t);

/** The same audio through ffmpeg's own filter (the chain the server ran before issue 48). */
function throughFfmpeg(input: Float32Array, filter: string): Float32Array {
  const res = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'f32le', '-ar', '48000', '-ac', '2', '-i', 'pipe:0'],
      ...['-af', filter, '-f', 'f32le', '-c:a', 'pcm_f32le', '-ar', '48000', '-ac', '2', 'pipe:1'],
    ],
    { input: Buffer.from(input.buffer, input.byteOffset, input.byteLength), maxBuffer: 1 << 26 },
  );
  if (res.status !== 0) throw new Error(`ffmpeg failed: ${res.stderr.toString()}`);
  const b = res.stdout;
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

/** Runs a stage over the whole signal in 20 ms frames, as the voice player's reads do. */
function inFrames(input: Float32Array, stage: (frame: Float32Array, frames: number) => void): Float32Array {
  const out = new Float32Array(input);
  for (let at = 0; at < out.length; at += FRAME * 2) {
    const frame = out.subarray(at, Math.min(out.length, at + FRAME * 2));
    stage(frame, frame.length / 2);
  }
  return out;
}

/** The level of one channel from `from` seconds on, in dB (RMS). */
function levelDb(s: Float32Array, from = 0, to = s.length / 2 / SAMPLE_RATE, ch = 0): number {
  let sum = 0;
  let n = 0;
  for (let i = Math.round(from * SAMPLE_RATE); i < Math.round(to * SAMPLE_RATE); i++) {
    sum += (s[i * 2 + ch] ?? 0) ** 2;
    n++;
  }
  return 10 * Math.log10(sum / n);
}

/** The strongest frequency of one channel (a scan in 1 Hz steps, Goertzel), over the given seconds. */
function pitch(s: Float32Array, fromHz: number, toHz: number, seconds = 0.5): number {
  const n = Math.min(s.length / 2, Math.round(seconds * SAMPLE_RATE));
  const left = Float32Array.from({ length: n }, (_, i) => s[i * 2] ?? 0);
  let best = 0;
  let bestPower = -1;
  for (let f = fromHz; f <= toHz; f++) {
    const power = powerAt(left, f, SAMPLE_RATE);
    if (power > bestPower) {
      bestPower = power;
      best = f;
    }
  }
  return best;
}

const maxDiff = (a: Float32Array, b: Float32Array) => {
  let worst = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++)
    worst = Math.max(worst, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return worst;
};

describe('the live chain’s stages (issue 48): what ffmpeg’s filters did, in the server', () => {
  it('bass boost raises 40 Hz by 16 dB and 100 Hz by 11 dB and leaves 5 kHz, sample for sample as ffmpeg’s bass=g=20:f=110:w=0.3', () => {
    const boost = (hz: number) => {
      const input = signal(1, sine(hz, 0.01));
      const f = new StereoBiquad();
      f.set(bassShelf(BASS_BOOST.gainDb, BASS_BOOST.hz, BASS_BOOST.q), 0);
      const out = inFrames(input, (b, n) => f.process(b, n));
      expect(maxDiff(out, throughFfmpeg(input, 'bass=g=20:f=110:w=0.3'))).toBeLessThan(1e-5);
      return levelDb(out, 0.5) - levelDb(input, 0.5);
    };
    expect(boost(40)).toBeGreaterThan(15.5);
    expect(boost(100)).toBeCloseTo(10.7, 0);
    expect(Math.abs(boost(5000))).toBeLessThan(0.1);
  });

  it('an equalizer band is ffmpeg’s peaking equalizer: low mid −12 dB is −12 dB at its centre, nothing at 5 kHz', () => {
    const band = (hz: number) => {
      const input = signal(1, sine(hz));
      const f = new StereoBiquad();
      f.set(peaking(-12, 354, 250), 0);
      const out = inFrames(input, (b, n) => f.process(b, n));
      expect(maxDiff(out, throughFfmpeg(input, 'equalizer=f=354:t=h:w=250:g=-12'))).toBeLessThan(1e-5);
      return levelDb(out, 0.5) - levelDb(input, 0.5);
    };
    expect(band(354)).toBeCloseTo(-12, 0);
    expect(Math.abs(band(5000))).toBeLessThan(0.3);
  });

  it('echo is ffmpeg’s aecho=0.8:0.9:1000:0.3: the input again one second later at 0.3', () => {
    // A burst of 440 Hz in the first 0.2 s, then silence: its echo is the only sound at 1.0–1.2 s.
    const input = signal(1.5, (t) => (t < 0.2 ? sine(440)(t) : 0));
    const echo = new Echo();
    echo.set(true, 0);
    const out = inFrames(input, (b, n) => echo.process(b, n));
    expect(maxDiff(out, throughFfmpeg(input, 'aecho=0.8:0.9:1000:0.3'))).toBeLessThan(1e-6);
    expect(levelDb(out, 1.05, 1.15) - levelDb(input, 0.05, 0.15)).toBeCloseTo(20 * Math.log10(0.9 * 0.3), 1);
  });

  it('8d is ffmpeg’s apulsator=hz=0.09: the sound moves from one ear to the other every 5.6 s', () => {
    const input = signal(6, sine(440));
    const p = new Pulsator();
    p.set(true, 0);
    const out = inFrames(input, (b, n) => p.process(b, n));
    expect(maxDiff(out, throughFfmpeg(input, 'apulsator=hz=0.09'))).toBeLessThan(1e-5);
    // A quarter cycle in (2.78 s): left at full level, right silent; three quarters in: the other way round.
    expect(levelDb(out, 2.7, 2.85, 0) - levelDb(input, 2.7, 2.85, 0)).toBeGreaterThan(-0.1);
    expect(levelDb(out, 2.7, 2.85, 1)).toBeLessThan(-40);
  });

  it('nightcore plays 440 Hz at 550 Hz and slowed at 352 Hz, consuming 1.25 and 0.8 s of song per second', () => {
    for (const [rate, hz] of [
      [1.25, 550],
      [0.8, 352],
    ] as const) {
      const input = signal(2, sine(440));
      const r = new Resampler();
      const out = new Float32Array(SAMPLE_RATE * 2);
      let fed = 0;
      for (let at = 0; at < SAMPLE_RATE; at += FRAME) {
        const need = r.needed(FRAME, rate);
        r.push(input.subarray(fed * 2), need);
        fed += need;
        r.render(out.subarray(at * 2, (at + FRAME) * 2), FRAME, rate);
      }
      expect(pitch(out, hz - 30, hz + 30)).toBe(hz);
      expect(r.position / SAMPLE_RATE).toBeCloseTo(rate, 6);
    }
  });

  it('at normal speed the resampler passes the audio through untouched', () => {
    const input = signal(0.1, (t, ch) => Math.sin(t * 1000 + ch));
    const r = new Resampler();
    const out = new Float32Array(input.length);
    for (let at = 0; at + FRAME <= input.length / 2; at += FRAME) {
      r.push(input.subarray(at * 2), r.needed(FRAME, 1));
      r.render(out.subarray(at * 2, (at + FRAME) * 2), FRAME, 1);
    }
    expect(maxDiff(out, input)).toBe(0);
  });

  const settings = (s: Partial<LiveSettings>): LiveSettings => ({
    effects: [],
    eq: FLAT_EQ,
    volume: 100,
    ...s,
  });

  it('volume 50 % is −6 dB from the next frame on, ramped over 2.5 ms with no step', () => {
    const chain = new LiveChain(settings({}));
    const input = signal(0.2, sine(440));
    const out = inFrames(input, (b, n) => {
      chain.process(b, n);
    });
    expect(maxDiff(out, input)).toBe(0);
    chain.set(settings({ volume: 50 }));
    const frame = input.slice(0, FRAME * 2);
    chain.process(frame, FRAME);
    // From the end of the ramp on, within the very next frame: half the amplitude.
    const after = frame.subarray(RAMP_FRAMES * 2);
    expect(levelDb(after) - levelDb(input.subarray(RAMP_FRAMES * 2, FRAME * 2))).toBeCloseTo(-6.02, 1);
    // No jump larger than the tone's own steepest step between two samples.
    let worst = 0;
    for (let i = 2; i < RAMP_FRAMES * 2; i += 2)
      worst = Math.max(worst, Math.abs((frame[i] ?? 0) - (frame[i - 2] ?? 0)));
    expect(worst).toBeLessThanOrEqual(0.25 * 2 * Math.PI * (440 / SAMPLE_RATE) + 1e-3);
  });

  it('raised to 200 % a loud song never goes above the limit (0.95), and the limiter is off at 100 %', () => {
    const loud = (t: number) => 0.9 * Math.sin(2 * Math.PI * 200 * t) * (t % 0.3 < 0.05 ? 1 : 0.3);
    const chain = new LiveChain(settings({ volume: 200 }));
    let peak = 0;
    inFrames(signal(2, loud), (b, n) => {
      chain.process(b, n);
      for (const v of b) peak = Math.max(peak, Math.abs(v));
    });
    expect(peak).toBeLessThanOrEqual(LIMIT);
    expect(peak).toBeGreaterThan(0.9);
    const plain = new LiveChain(settings({ volume: 100 }));
    const input = signal(0.5, loud);
    expect(
      maxDiff(
        inFrames(input, (b, n) => plain.process(b, n)),
        input,
      ),
    ).toBe(0);
  });

  it('a song raised by normalisation gets the limiter too (its loudness gain and the volume add up)', () => {
    const chain = new LiveChain(settings({ volume: 100 }));
    chain.setSourceGain(6, 0);
    let peak = 0;
    inFrames(signal(0.5, sine(200, 0.8)), (b, n) => {
      chain.process(b, n);
      for (const v of b) peak = Math.max(peak, Math.abs(v));
    });
    expect(peak).toBeLessThanOrEqual(LIMIT);
    expect(peak).toBeGreaterThan(0.9);
  });

  it('a new song takes its loudness gain at once (+6 dB from the first sample)', () => {
    const chain = new LiveChain(settings({}));
    chain.setSourceGain(6, 0);
    const out = inFrames(signal(0.2, sine(440, 0.1)), (b, n) => chain.process(b, n));
    expect(levelDb(out, 0, 0.02) - levelDb(signal(0.2, sine(440, 0.1)), 0, 0.02)).toBeCloseTo(6, 1);
  });

  it('a measured gain arriving mid-song (or normalisation switched) moves there over a second, with no step', () => {
    const chain = new LiveChain(settings({}));
    // 400 Hz: whole periods in each 20 ms frame, so a frame's level is exact.
    const input = signal(1.6, sine(400, 0.1));
    const before = inFrames(input.subarray(0, FRAME * 10 * 2), (b, n) => chain.process(b, n));
    chain.setSourceGain(6, SOURCE_RAMP_FRAMES);
    const after = inFrames(input.subarray(FRAME * 10 * 2), (b, n) => chain.process(b, n));
    const base = levelDb(before, 0, 0.2);
    // Still about the old level in the first frame, about halfway (in dB, more: the factor is linear) at
    // 0.5 s, all of it after the second.
    expect(levelDb(after, 0, 0.02) - base).toBeLessThan(0.3);
    const half = levelDb(after, 0.48, 0.52) - base;
    expect(half).toBeGreaterThan(2);
    expect(half).toBeLessThan(5);
    expect(levelDb(after, 1.05, 1.4) - base).toBeCloseTo(6, 1);
    // Smooth: frame to frame, the level only rises, never by more than 0.4 dB (a step would be 6).
    let prev = base;
    for (let at = 0; at + 0.02 <= 1.4; at += 0.02) {
      const l = levelDb(after, at, at + 0.02);
      expect(l - prev).toBeGreaterThan(-0.01);
      expect(l - prev).toBeLessThan(0.4);
      prev = l;
    }
    // The same gain again (a seek of the same song, its new ffmpeg switched in) leaves a ramp going.
    const again = new LiveChain(settings({}));
    again.setSourceGain(-6, SOURCE_RAMP_FRAMES);
    inFrames(signal(0.5, sine(440, 0.1)), (b, n) => again.process(b, n));
    again.setSourceGain(-6, 0);
    const rest = inFrames(signal(0.6, sine(440, 0.1)), (b, n) => again.process(b, n));
    expect(levelDb(rest, 0, 0.02) - base).toBeGreaterThan(-5);
    expect(levelDb(rest, 0.55, 0.6) - base).toBeCloseTo(-6, 1);
  });

  it('a song lowered by a ramp keeps the limiter until the ramp ends', () => {
    const chain = new LiveChain(settings({}));
    chain.setSourceGain(10, 0);
    chain.setSourceGain(0, SOURCE_RAMP_FRAMES);
    let peak = 0;
    inFrames(signal(1.2, sine(200, 0.9)), (b, n) => {
      chain.process(b, n);
      for (const v of b) peak = Math.max(peak, Math.abs(v));
    });
    expect(peak).toBeLessThanOrEqual(LIMIT);
  });

  it('switching bass boost on mid-song is heard within one frame, without a click', () => {
    const chain = new LiveChain(settings({}));
    const input = signal(0.5, sine(100, 0.01));
    const before = input.slice(0, FRAME * 10 * 2);
    inFrames(before, (b, n) => chain.process(b, n));
    chain.set(settings({ effects: ['bassboost'] }));
    const after = inFrames(input.slice(FRAME * 10 * 2), (b, n) => chain.process(b, n));
    // The first frame after the change already carries most of the boost (+10.7 dB at 100 Hz); then all of it.
    const boosted = levelDb(after, 0.2, 0.3) - levelDb(before, 0.1, 0.2);
    expect(boosted).toBeCloseTo(10.7, 0);
    expect(levelDb(after, 0, 0.02) - levelDb(before, 0.1, 0.2)).toBeGreaterThan(boosted - 3);
    // No click: no step between two samples larger than the boosted tone's own steepest one.
    let worst = 0;
    for (let i = 2; i < after.length; i += 2)
      worst = Math.max(worst, Math.abs((after[i] ?? 0) - (after[i - 2] ?? 0)));
    expect(worst).toBeLessThan(0.01 * 10 ** (11.5 / 20) * 2 * Math.PI * (100 / SAMPLE_RATE) * 1.5);
  });
});
