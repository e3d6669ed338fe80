/**
 * A value that moves in a straight line to a new target over a number of frames, so a change of level or of
 * an effect's amount never clicks; with no frames it jumps. One per gain, effect amount or wet mix.
 */
export class Ramp {
  private current: number;
  private target: number;
  private step = 0;

  constructor(initial: number) {
    this.current = initial;
    this.target = initial;
  }

  /** The value of the frame last taken (between the old and the new target during a ramp). */
  get value(): number {
    return this.current;
  }

  get settled(): boolean {
    return this.current === this.target;
  }

  set(target: number, frames: number): void {
    if (target === this.target) return;
    this.target = target;
    if (frames <= 0) this.current = target;
    this.step = frames > 0 ? (target - this.current) / frames : 0;
  }

  /** One frame further: the value for this frame. */
  next(): number {
    if (this.current !== this.target) {
      this.current += this.step;
      const past = this.step > 0 ? this.current > this.target : this.current < this.target;
      if (past) this.current = this.target;
    }
    return this.current;
  }
}
