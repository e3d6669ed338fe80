import { SAMPLE_RATE } from './biquad.ts';
import { Ramp } from './ramp.ts';

/** The level a raised signal is held under (ffmpeg's `alimiter=limit=0.95` in the chain before). */
export const LIMIT = 0.95;
/** How fast the limiter lets go after a peak (alimiter's `release=50` ms). */
const RELEASE_MS = 50;

/**
 * A gain factor (the listener's volume, 0–2; the song's loudness gain) ramped linearly from the old to the
 * new value over the ramp, so a change never clicks.
 */
export class Gain {
  private readonly ramp = new Ramp(1);

  /** The factor applied now (between the old and the new one during a ramp). */
  get current(): number {
    return this.ramp.value;
  }

  get ramping(): boolean {
    return !this.ramp.settled;
  }

  set(gain: number, rampFrames: number): void {
    this.ramp.set(gain, rampFrames);
  }

  process(buf: Float32Array, frames: number): void {
    if (this.ramp.settled) {
      const g = this.ramp.value;
      if (g === 1) return;
      for (let i = 0; i < frames * 2; i++) buf[i] = (buf[i] ?? 0) * g;
      return;
    }
    for (let i = 0; i < frames; i++) {
      const g = this.ramp.next();
      buf[i * 2] = (buf[i * 2] ?? 0) * g;
      buf[i * 2 + 1] = (buf[i * 2 + 1] ?? 0) * g;
    }
  }
}

/**
 * A peak limiter just under full scale, for when the level is raised: a peak above LIMIT lowers the gain at
 * once (no look-ahead, which would delay every change by as much), and the gain recovers towards 1 with a
 * 50 ms time constant. Its output never exceeds LIMIT. Switched off, it only recovers (no jump back).
 */
export class Limiter {
  private gain = 1;
  on = false;
  private readonly recover = 1 - Math.exp(-1 / ((RELEASE_MS / 1000) * SAMPLE_RATE));

  process(buf: Float32Array, frames: number): void {
    if (!this.on && this.gain === 1) return;
    let g = this.gain;
    for (let i = 0; i < frames; i++) {
      g += (1 - g) * this.recover;
      if (g > 0.999_999) g = 1;
      const k = i * 2;
      const l = buf[k] ?? 0;
      const r = buf[k + 1] ?? 0;
      if (this.on) {
        const peak = Math.max(Math.abs(l), Math.abs(r));
        if (peak * g > LIMIT) g = LIMIT / peak;
      }
      buf[k] = l * g;
      buf[k + 1] = r * g;
    }
    this.gain = g;
  }
}
