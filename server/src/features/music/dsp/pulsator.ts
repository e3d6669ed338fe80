import { SAMPLE_RATE } from './biquad.ts';
import { Ramp } from './ramp.ts';

/** ffmpeg's `apulsator=hz=0.09` (the "8d" effect): its defaults, a sine, right channel half a cycle later. */
export const PULSATOR_HZ = 0.09;

/**
 * `apulsator` as ffmpeg computes it with its defaults (amount 1, width 1, offsets 0 and 0.5): each channel's
 * gain is 0.5 + 0.5·sin(2π·phase), the right one half a cycle behind, so the sound circles the listener.
 * A wet amount fades between the dry signal (0) and the effect (1); the phase runs on while it is off.
 */
export class Pulsator {
  private phase = 0;
  private readonly wet = new Ramp(0);

  set(on: boolean, rampFrames: number): void {
    this.wet.set(on ? 1 : 0, rampFrames);
  }

  process(buf: Float32Array, frames: number): void {
    const inc = PULSATOR_HZ / SAMPLE_RATE;
    if (this.wet.settled && this.wet.value === 0) {
      this.phase = (this.phase + inc * frames) % 1;
      return;
    }
    let phase = this.phase;
    for (let i = 0; i < frames; i++) {
      const w = this.wet.next();
      const left = Math.sin(phase * 2 * Math.PI) * 0.5 + 0.5;
      const r = phase + 0.5;
      const right = Math.sin((r > 1 ? r - 1 : r) * 2 * Math.PI) * 0.5 + 0.5;
      const k = i * 2;
      const l = buf[k] ?? 0;
      const rr = buf[k + 1] ?? 0;
      buf[k] = l * (1 - w) + l * left * w;
      buf[k + 1] = rr * (1 - w) + rr * right * w;
      phase += inc;
      if (phase >= 1) phase -= 1;
    }
    this.phase = phase;
  }
}
