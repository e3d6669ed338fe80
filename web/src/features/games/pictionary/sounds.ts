import type { SoundCue } from './sound-cues.ts';

/**
 * The cues, synthesized with the Web Audio API (no sound files): short notes with a quick attack and decay,
 * quiet enough not to startle. One AudioContext per tab, made on the first cue; browsers keep it suspended
 * until the page had a click or a key press, so it is resumed on the next one.
 */
let audio: AudioContext | null = null;

function context(): AudioContext | null {
  if (audio) return audio;
  const Ctor = globalThis.AudioContext;
  if (!Ctor) return null; // no Web Audio: the game is silent
  audio = new Ctor();
  const resume = () => {
    void audio?.resume().catch(() => {});
  };
  window.addEventListener('pointerdown', resume, { passive: true });
  window.addEventListener('keydown', resume);
  return audio;
}

/** A note: `freq` Hz starting `at` seconds from now, `length` seconds long. */
function note(
  ctx: AudioContext,
  freq: number,
  at: number,
  length: number,
  type: OscillatorType,
  gain = 0.12,
) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const env = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  env.gain.setValueAtTime(0.0001, start);
  env.gain.exponentialRampToValueAtTime(gain, start + 0.01);
  env.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(env).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

const TUNES: Record<SoundCue, (ctx: AudioContext) => void> = {
  // Two rising notes (C5, G5): "your turn".
  'your-turn': (ctx) => {
    note(ctx, 523.25, 0, 0.18, 'triangle');
    note(ctx, 783.99, 0.16, 0.3, 'triangle');
  },
  // A quick major arpeggio (E5, G#5, B5): someone guessed it.
  correct: (ctx) => {
    note(ctx, 659.25, 0, 0.12, 'sine', 0.1);
    note(ctx, 830.61, 0.08, 0.12, 'sine', 0.1);
    note(ctx, 987.77, 0.16, 0.25, 'sine', 0.1);
  },
  // A short soft tick, once a second in the last 10 seconds.
  tick: (ctx) => note(ctx, 1046.5, 0, 0.06, 'square', 0.04),
};

export function playCue(cue: SoundCue): void {
  try {
    const ctx = context();
    if (ctx) TUNES[cue](ctx);
  } catch (e) {
    console.warn('Pictionary: sound failed', e); // a sound is never worth breaking the game for
  }
}
