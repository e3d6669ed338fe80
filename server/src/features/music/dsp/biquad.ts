/** 48 kHz: the only rate of the live chain (ffmpeg resamples every song to it). */
export const SAMPLE_RATE = 48_000;

/** A biquad's coefficients, normalised by a0 (ffmpeg's af_biquads computes the same). */
export type BiquadCoeffs = { b0: number; b1: number; b2: number; a1: number; a2: number };

/** The coefficients of a filter that changes nothing. */
export const IDENTITY: BiquadCoeffs = { b0: 1, b1: 0, b2: 0, a1: 0, a2: 0 };

export const isIdentity = (c: BiquadCoeffs) =>
  c.b0 === 1 && c.b1 === 0 && c.b2 === 0 && c.a1 === 0 && c.a2 === 0;

const normalise = (b0: number, b1: number, b2: number, a0: number, a1: number, a2: number) => ({
  b0: b0 / a0,
  b1: b1 / a0,
  b2: b2 / a0,
  a1: a1 / a0,
  a2: a2 / a0,
});

/**
 * ffmpeg's `bass` filter (two poles, width as a Q factor, its default): the RBJ cookbook low shelf with the
 * shelf term ffmpeg's `bass` uses, √(2A) instead of the cookbook's 2√A (a gentler slope: +10 dB at `hz`
 * for a 20 dB shelf). `bass=g=20:f=110:w=0.3` is `bassShelf(20, 110, 0.3)`.
 */
export function bassShelf(gainDb: number, hz: number, q: number): BiquadCoeffs {
  if (gainDb === 0) return IDENTITY;
  const A = 10 ** (gainDb / 40);
  const w0 = (2 * Math.PI * hz) / SAMPLE_RATE;
  const alpha = Math.sin(w0) / (2 * q);
  const cos = Math.cos(w0);
  const sq = Math.sqrt(A * A + 1 - (A - 1) * (A - 1)) * alpha;
  return normalise(
    A * (A + 1 - (A - 1) * cos + sq),
    2 * A * (A - 1 - (A + 1) * cos),
    A * (A + 1 - (A - 1) * cos - sq),
    A + 1 + (A - 1) * cos + sq,
    -2 * (A - 1 + (A + 1) * cos),
    A + 1 + (A - 1) * cos - sq,
  );
}

/**
 * ffmpeg's `equalizer` with its width in Hz (`t=h`): the RBJ cookbook peaking filter, `gainDb` at `hz`,
 * `widthHz` wide. 0 dB is no filter at all.
 */
export function peaking(gainDb: number, hz: number, widthHz: number): BiquadCoeffs {
  if (gainDb === 0) return IDENTITY;
  const A = 10 ** (gainDb / 40);
  const w0 = (2 * Math.PI * hz) / SAMPLE_RATE;
  const alpha = Math.sin(w0) / ((2 * hz) / widthHz);
  const cos = Math.cos(w0);
  return normalise(1 + alpha * A, -2 * cos, 1 - alpha * A, 1 + alpha / A, -2 * cos, 1 - alpha / A);
}

/**
 * One biquad on interleaved stereo, direct form I (ffmpeg's default transform), state in doubles. A
 * change of coefficients is crossfaded: for `rampFrames` frames the old and the new filter both run (the
 * new one from the old one's state) and their outputs are mixed, so a change never clicks.
 */
export class StereoBiquad {
  private c: BiquadCoeffs = IDENTITY;
  private old: BiquadCoeffs | null = null;
  private oldState = new Float64Array(8);
  private rampLeft = 0;
  private rampLength = 1;
  /** x1, x2, y1, y2 of the left channel, then of the right. */
  private readonly s = new Float64Array(8);

  get coeffs(): BiquadCoeffs {
    return this.c;
  }

  /** The filter from the next sample on, faded in over `rampFrames` stereo frames. */
  set(next: BiquadCoeffs, rampFrames: number): void {
    if (sameCoeffs(next, this.c)) return;
    if (rampFrames > 0) {
      // A change during a crossfade starts a new one from the filter heard most (the newer one).
      this.old = this.c;
      this.oldState.set(this.s);
      this.rampLeft = rampFrames;
      this.rampLength = rampFrames;
    }
    this.c = next;
  }

  /** Filters `frames` stereo frames of `buf` in place. */
  process(buf: Float32Array, frames: number): void {
    if (this.old === null && isIdentity(this.c)) {
      // Nothing to do; the state follows the signal, so a filter switched on later starts from it.
      this.follow(buf, frames);
      return;
    }
    let from = 0;
    if (this.old !== null) {
      const n = Math.min(frames, this.rampLeft);
      const oldOut = new Float32Array(n * 2);
      oldOut.set(buf.subarray(0, n * 2));
      run(this.old, this.oldState, oldOut, 0, n);
      run(this.c, this.s, buf, 0, n);
      for (let i = 0; i < n; i++) {
        const t = (this.rampLength - this.rampLeft + i + 1) / this.rampLength;
        const k = i * 2;
        buf[k] = (oldOut[k] ?? 0) * (1 - t) + (buf[k] ?? 0) * t;
        buf[k + 1] = (oldOut[k + 1] ?? 0) * (1 - t) + (buf[k + 1] ?? 0) * t;
      }
      this.rampLeft -= n;
      if (this.rampLeft === 0) this.old = null;
      from = n;
    }
    if (from < frames) run(this.c, this.s, buf, from, frames);
  }

  private follow(buf: Float32Array, frames: number): void {
    const s = this.s;
    const last = frames - 1;
    for (let ch = 0; ch < 2; ch++) {
      const x1 = buf[last * 2 + ch] ?? 0;
      const x2 = frames > 1 ? (buf[(last - 1) * 2 + ch] ?? 0) : (s[ch * 4] ?? 0);
      s[ch * 4] = x1;
      s[ch * 4 + 1] = x2;
      s[ch * 4 + 2] = x1;
      s[ch * 4 + 3] = x2;
    }
  }
}

function sameCoeffs(a: BiquadCoeffs, b: BiquadCoeffs): boolean {
  return a.b0 === b.b0 && a.b1 === b.b1 && a.b2 === b.b2 && a.a1 === b.a1 && a.a2 === b.a2;
}

/** Direct form I over frames [from, to) of interleaved stereo, in place. */
function run(c: BiquadCoeffs, s: Float64Array, buf: Float32Array, from: number, to: number): void {
  const { b0, b1, b2, a1, a2 } = c;
  for (let ch = 0; ch < 2; ch++) {
    const o = ch * 4;
    let x1 = s[o] ?? 0;
    let x2 = s[o + 1] ?? 0;
    let y1 = s[o + 2] ?? 0;
    let y2 = s[o + 3] ?? 0;
    for (let i = from; i < to; i++) {
      const k = i * 2 + ch;
      const x = buf[k] ?? 0;
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      buf[k] = y;
    }
    s[o] = x1;
    s[o + 1] = x2;
    s[o + 2] = y1;
    s[o + 3] = y2;
  }
}
