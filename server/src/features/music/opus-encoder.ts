import type OpusScript from 'opusscript';
import { SAMPLE_RATE } from './dsp/biquad.ts';
import { FRAME } from './dsp/chain.ts';
import type { FrameEncoder } from './packet-switch.ts';

/** The bit rate Discord's voice channels carry at most without boosts, as ffmpeg's libopus had it. */
const BITRATE = 128_000;
/** libopus's CTL numbers (opus_defines.h). */
const SET_BITRATE = 4002;
const SET_COMPLEXITY = 4010;
const SET_SIGNAL = 4024;
const SIGNAL_MUSIC = 3002;
/** The encoder's effort, 0–10 (see docs/music.md: the cost per frame measured at each). */
export const COMPLEXITY = 10;

type OpusScriptClass = typeof OpusScript;
let loading: Promise<void> | undefined;
let opus: OpusScriptClass | undefined;

/** Loads the encoder's module (with the first track: nothing of it at start-up). */
export async function loadEncoder(): Promise<void> {
  loading ??= import('opusscript').then((m) => {
    opus = m.default;
  });
  await loading;
}

/**
 * One Opus encoder for a voice session: 48 kHz stereo, 20 ms frames, 128 kb/s, restricted low delay (CELT
 * only, what libopus picks for music at this rate anyway, with 2.5 ms of look-ahead instead of 6.5: a change
 * reaches the next packet whole sooner). `loadEncoder` must have resolved.
 */
export function createEncoder(complexity = COMPLEXITY): FrameEncoder {
  if (!opus) throw new Error('the Opus encoder is not loaded');
  const encoder = new opus(SAMPLE_RATE, 2, opus.Application.RESTRICTED_LOWDELAY);
  encoder.encoderCTL(SET_BITRATE, BITRATE);
  encoder.encoderCTL(SET_COMPLEXITY, complexity);
  encoder.encoderCTL(SET_SIGNAL, SIGNAL_MUSIC);
  let closed = false;
  return {
    encode: (pcm) => encoder.encode(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), FRAME),
    close: () => {
      if (closed) return;
      closed = true;
      encoder.delete();
    },
  };
}
