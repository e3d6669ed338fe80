import { EQ_BANDS, type EqSettings, FLAT_EQ, type MusicEffect } from '@guildhall/common';
import { bassShelf, peaking, SAMPLE_RATE, StereoBiquad } from './biquad.ts';
import { Echo } from './echo.ts';
import { Gain, Limiter } from './gain.ts';
import { Pulsator } from './pulsator.ts';

/** 20 ms at 48 kHz: one Opus frame. */
export const FRAME = (SAMPLE_RATE * 20) / 1000;
/**
 * A change fades in over 2.5 ms: enough that a step in level or filter never clicks, short enough that the
 * very next packet already carries it (a whole-frame fade would leave half of it in that packet).
 */
export const RAMP_FRAMES = 120;
/**
 * A change of the song's loudness gain (its measurement arriving while it plays, normalisation switched on
 * or off) is spread over a second: a step of several dB, even without a click, would be heard as a jump.
 */
export const SOURCE_RAMP_FRAMES = SAMPLE_RATE;

/** How fast song time passes per second of audio sent: the speed effects change speed and pitch together. */
export const EFFECT_RATES: Partial<Record<MusicEffect, number>> = { nightcore: 1.25, slowed: 0.8 };
/** The fastest a speed effect plays (nightcore): the most song a frame can consume. */
export const MAX_RATE = Math.max(1, ...Object.values(EFFECT_RATES));

export function playbackRate(effects: readonly MusicEffect[]): number {
  return effects.reduce((rate, e) => rate * (EFFECT_RATES[e] ?? 1), 1);
}

/** What the live chain applies: the effects, the equalizer and the volume (0–200 %). */
export type LiveSettings = { effects: readonly MusicEffect[]; eq: EqSettings; volume: number };

/** The bass boost, ffmpeg's `bass=g=20:f=110:w=0.3`. */
export const BASS_BOOST = { gainDb: 20, hz: 110, q: 0.3 } as const;

/** Each equalizer band as a peaking filter centred on the band's geometric middle, as wide as the band. */
export const EQ_FILTERS = EQ_BANDS.map((b) => ({
  key: b.key,
  hz: Math.round(Math.sqrt(b.fromHz * b.toHz)),
  widthHz: b.toHz - b.fromHz,
}));

/** A raised level (more than this many dB, the volume with the song's loudness gain) gets the limiter. */
const LIMIT_ABOVE_DB = 0.5;

const toDb = (factor: number) => (factor > 0 ? 20 * Math.log10(factor) : Number.NEGATIVE_INFINITY);

/**
 * The part of the signal path that changes while a song plays, run in the server on 48 kHz stereo floats
 * (after the speed effects, see Resampler), in the order ffmpeg's chain had it: the song's loudness gain
 * (normalisation), bass boost, echo, 8d, the equalizer bands, the volume, and the limiter when the level is
 * raised. `set` takes effect at the next sample processed, faded over RAMP_FRAMES; `setSourceGain` over
 * the ramp it is given.
 */
export class LiveChain {
  private readonly bass = new StereoBiquad();
  private readonly echo = new Echo();
  private readonly pulsator = new Pulsator();
  private readonly bands = EQ_FILTERS.map(() => new StereoBiquad());
  private readonly gain = new Gain();
  private readonly limiter = new Limiter();
  /** The song's loudness gain (normalisation), before the effects as ffmpeg applied it before. */
  private readonly sourceGain = new Gain();
  private sourceGainDb = 0;
  rate = 1;
  private settings: LiveSettings = { effects: [], eq: { ...FLAT_EQ }, volume: 100 };

  constructor(settings?: LiveSettings) {
    if (settings) this.apply(settings, 0);
  }

  /** New settings, heard from the next sample on. */
  set(settings: LiveSettings): void {
    this.apply(settings, RAMP_FRAMES);
  }

  /**
   * The loudness gain of the song playing (normalisation), in dB, reached over `rampFrames` (0: at once, a
   * new song). The same value again leaves a ramp in progress alone.
   */
  setSourceGain(db: number, rampFrames: number): void {
    this.sourceGainDb = db;
    this.sourceGain.set(10 ** (db / 20), rampFrames);
    this.updateLimiter();
  }

  /** Processes `frames` stereo frames of `buf` in place. */
  process(buf: Float32Array, frames: number): void {
    const ramping = this.sourceGain.ramping;
    this.sourceGain.process(buf, frames);
    if (ramping && !this.sourceGain.ramping) this.updateLimiter(); // a lowering ramp has ended
    this.bass.process(buf, frames);
    this.echo.process(buf, frames);
    this.pulsator.process(buf, frames);
    for (const band of this.bands) band.process(buf, frames);
    this.gain.process(buf, frames);
    this.limiter.process(buf, frames);
  }

  private apply(s: LiveSettings, ramp: number): void {
    this.settings = { effects: [...s.effects], eq: { ...s.eq }, volume: s.volume };
    const on = (e: MusicEffect) => s.effects.includes(e);
    this.rate = playbackRate(s.effects);
    this.bass.set(
      on('bassboost') ? bassShelf(BASS_BOOST.gainDb, BASS_BOOST.hz, BASS_BOOST.q) : bassShelf(0, 0, 1),
      ramp,
    );
    this.echo.set(on('echo'), ramp);
    this.pulsator.set(on('8d'), ramp);
    for (const [i, f] of EQ_FILTERS.entries())
      this.bands[i]?.set(peaking(s.eq[f.key], f.hz, f.widthHz), ramp);
    this.gain.set(s.volume / 100, ramp);
    this.updateLimiter();
  }

  private updateLimiter(): void {
    const v = this.settings.volume;
    // During a ramp, the higher of where it is and where it goes: a song being lowered keeps the limiter
    // until the ramp ends.
    const sourceDb = Math.max(this.sourceGainDb, toDb(this.sourceGain.current));
    const boostDb = sourceDb + (v > 0 ? 20 * Math.log10(v / 100) : 0);
    this.limiter.on = boostDb > LIMIT_ABOVE_DB;
  }
}
