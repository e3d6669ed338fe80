import { SAMPLE_RATE } from './biquad.ts';
import { Ramp } from './ramp.ts';

/** ffmpeg's `aecho=0.8:0.9:1000:0.3`: in gain, out gain, one echo 1000 ms late at 0.3 of the input. */
export const ECHO = { inGain: 0.8, outGain: 0.9, delayMs: 1000, decay: 0.3 } as const;
const DELAY = Math.round((ECHO.delayMs * SAMPLE_RATE) / 1000);

/**
 * `aecho` as ffmpeg computes it (out = outGain × (inGain × in + decay × in 1 s ago), per channel), with a
 * wet amount that fades between the dry signal (0) and the echo (1). The delay line records the signal at
 * all times, so switching the echo on repeats the last second at once, as a running echo unit would.
 */
export class Echo {
  private readonly line = new Float32Array(DELAY * 2);
  private index = 0;
  private readonly wet = new Ramp(0);

  /** On or off from the next sample, faded over `rampFrames` frames. */
  set(on: boolean, rampFrames: number): void {
    this.wet.set(on ? 1 : 0, rampFrames);
  }

  process(buf: Float32Array, frames: number): void {
    const line = this.line;
    let index = this.index;
    for (let i = 0; i < frames; i++) {
      const w = this.wet.next();
      for (let ch = 0; ch < 2; ch++) {
        const k = i * 2 + ch;
        const x = buf[k] ?? 0;
        const j = index * 2 + ch;
        if (w !== 0) {
          const echoed = ECHO.outGain * (ECHO.inGain * x + ECHO.decay * (line[j] ?? 0));
          buf[k] = w === 1 ? echoed : x * (1 - w) + echoed * w;
        }
        line[j] = x; // the sample DELAY frames ago is overwritten by this one
      }
      index = index + 1 === DELAY ? 0 : index + 1;
    }
    this.index = index;
  }
}
