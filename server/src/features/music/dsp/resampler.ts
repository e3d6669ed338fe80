/**
 * The live speed effects (nightcore 1.25, slowed 0.8): the song's 48 kHz audio read `rate` times as fast
 * and interpolated back onto 48 kHz, so speed and pitch change together, as ffmpeg's
 * `asetrate=48000*rate,aresample=48000` does. Cubic (Catmull-Rom) interpolation between input frames; at
 * rate 1 on a whole frame position the input is copied as it is.
 *
 * The input comes in as needed (`needed` then `push`); `position` counts the input frames consumed since the
 * source began (fractional while a rate is on), which is the song time played.
 */
export class Resampler {
  /** Input frames kept: one before the read position (for the cubic), then what is not read yet. */
  private buf = new Float32Array(4096 * 2);
  /** Stereo frames held in `buf`. */
  private held = 0;
  /** Read position in `buf` (frames, fractional). */
  private pos = 0;
  /** Input frames dropped from the front of `buf` so far. */
  private dropped = 0;

  /** Input frames consumed since the source began. */
  get position(): number {
    return this.dropped + this.pos;
  }

  /** Starts over on a new source (a seek, the next song): nothing held. */
  reset(): void {
    this.held = 0;
    this.pos = 0;
    this.dropped = 0;
  }

  /** How many input frames must be pushed before `render(frames, rate)` can run. */
  needed(frames: number, rate: number): number {
    // The cubic reads two frames past the last position; at rate 1 the copy starts at the nearest whole frame.
    const last = rate === 1 ? Math.round(this.pos) + frames : Math.floor(this.pos + (frames - 1) * rate) + 3;
    return Math.max(0, last - this.held);
  }

  /** Appends `frames` stereo frames of interleaved input. */
  push(input: Float32Array, frames: number): void {
    this.compact();
    const need = (this.held + frames) * 2;
    if (need > this.buf.length) {
      const grown = new Float32Array(Math.max(need, this.buf.length * 2));
      grown.set(this.buf.subarray(0, this.held * 2));
      this.buf = grown;
    }
    this.buf.set(input.subarray(0, frames * 2), this.held * 2);
    this.held += frames;
  }

  /** Writes `frames` output frames into `out` (interleaved stereo), reading `rate` input frames per frame. */
  render(out: Float32Array, frames: number, rate: number): void {
    const b = this.buf;
    if (rate === 1 && !Number.isInteger(this.pos)) {
      // Back at normal speed: onto the nearest whole frame (under half a sample: inaudible), then exact copies.
      this.pos = Math.round(this.pos);
    }
    if (rate === 1) {
      const p = this.pos;
      out.set(b.subarray(p * 2, (p + frames) * 2));
      this.pos = p + frames;
      return;
    }
    let pos = this.pos;
    for (let i = 0; i < frames; i++) {
      const n = Math.floor(pos);
      const t = pos - n;
      const t2 = t * t;
      const t3 = t2 * t;
      // Catmull-Rom weights of frames n-1, n, n+1, n+2.
      const w0 = -0.5 * t3 + t2 - 0.5 * t;
      const w1 = 1.5 * t3 - 2.5 * t2 + 1;
      const w2 = -1.5 * t3 + 2 * t2 + 0.5 * t;
      const w3 = 0.5 * t3 - 0.5 * t2;
      const m = n > 0 ? n - 1 : n; // the first frame of a source has no frame before it: itself
      for (let ch = 0; ch < 2; ch++) {
        out[i * 2 + ch] =
          w0 * (b[m * 2 + ch] ?? 0) +
          w1 * (b[n * 2 + ch] ?? 0) +
          w2 * (b[(n + 1) * 2 + ch] ?? 0) +
          w3 * (b[(n + 2) * 2 + ch] ?? 0);
      }
      pos += rate;
    }
    this.pos = pos;
  }

  /** Drops what is no longer needed: everything before the frame before the read position. */
  private compact(): void {
    const keepFrom = Math.max(0, Math.floor(this.pos) - 1);
    if (keepFrom === 0) return;
    this.buf.copyWithin(0, keepFrom * 2, this.held * 2);
    this.held -= keepFrom;
    this.pos -= keepFrom;
    this.dropped += keepFrom;
  }
}
