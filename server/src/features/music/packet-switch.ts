import { Readable } from 'node:stream';
import { FRAME, LiveChain, type LiveSettings } from './dsp/chain.ts';
import { Resampler } from './dsp/resampler.ts';
import type { PcmBuffer } from './pcm-buffer.ts';

/** Opus's three-byte silence frame (Discord's voice docs: five of them before a pause in transmission). */
export const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);
export const SILENCE_FRAMES_BEFORE_STOP = 5;

/** One Opus encoder for a whole session: 20 ms of 48 kHz interleaved stereo in, one packet out. */
export type FrameEncoder = { encode: (pcm: Int16Array) => Buffer; close: () => void };

/**
 * One source of decoded audio (an ffmpeg's output): what it holds, the input frames the live chain has
 * consumed from it (fractional under a speed effect: the song time played is `consumed / 48000`), and the
 * song's loudness gain (normalisation) the live chain applies to it, in dB.
 */
export type PcmSource = { pcm: PcmBuffer; consumed: number; gainDb: number };

/** Ends a source the switch has let go of (kills its ffmpeg). */
export type Retire = () => void;

/** Without a read for this long the player is paused or not started: a switch happens at once. */
const READ_IDLE_MS = 60;
/** A switch waiting for the player's next read happens by itself after this long (a pause meanwhile). */
const SWITCH_WAIT_MS = 100;
/** Samples over which a jump in the waveform at a switch of source (a seek, the next song) is smoothed. */
const DECLICK_FRAMES = 96;

/**
 * The one stream the voice player reads for a whole session (issue 48): each `read()`, the player's own
 * call once per 20 ms frame, takes 20 ms of decoded audio from the current source, runs it through the
 * live chain (speed, effects, equalizer, volume, limiter: `chain`, whose settings take effect at the very
 * next frame) and encodes it with the session's one Opus encoder. Nothing is encoded ahead: the packet
 * returned is the one the player sends next.
 *
 * A seek, the next song or a crash restart start a new ffmpeg while the current one keeps playing, and
 * `switchTo` swaps them between two frames once the new one has audio: no hole, nothing inserted, and the
 * encoder goes on (no new encoder's priming at the switch). The swap happens inside the player's read, and
 * what follows it (ending the old ffmpeg, the status push, the request's answer) right after it. `finish()`
 * sends five silence frames and then ends the stream (the player goes idle).
 *
 * A source with less than a frame ready (a starved ffmpeg) gives nothing for that frame: the player then
 * sends a silence frame, as it always did. A source that ended pads its last partial frame with silence.
 */
export class PacketSwitch extends Readable {
  private source: PcmSource | null = null;
  private retireSource: Retire | null = null;
  private pending: { source: PcmSource; retire: Retire; done: () => void } | null = null;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  private readonly tail: Buffer[] = [];
  private finishing = false;
  private readonly encoder: FrameEncoder;
  private readonly resampler = new Resampler();
  /** Real (not padding) input frames taken from the current source. */
  private taken = 0;
  private endSignalled = false;
  private input = new Float32Array(FRAME * 2 * 2);
  private readonly out = new Float32Array(FRAME * 2);
  private readonly pcm16 = new Int16Array(FRAME * 2);
  private readonly last = new Float32Array(2);
  private declick = false;
  /** The effects, equalizer and volume: `chain.set` is heard at the next frame. */
  readonly chain: LiveChain;
  /** Frames the current source could not fill in time (the player sent silence instead). */
  underruns = 0;
  /** Called when the current source ends by itself (the song played to its end, or ffmpeg died). */
  onSourceEnd: (source: PcmSource) => void = () => {};

  constructor(encoder: FrameEncoder, settings?: LiveSettings) {
    super({ objectMode: true, read() {} });
    this.encoder = encoder;
    this.chain = new LiveChain(settings);
  }

  get current(): PcmSource | null {
    return this.source;
  }

  /**
   * Makes `next` the source at the player's next frame; `retire` ends it once it is let go of. Resolves
   * when the previous source has been retired (or when `next` was itself replaced before it played).
   */
  switchTo(next: PcmSource, retire: Retire): Promise<void> {
    const superseded = this.pending;
    if (superseded) {
      this.pending = null;
      superseded.retire();
      superseded.done();
    }
    return new Promise<void>((resolve) => {
      if (this.finishing) {
        retire();
        resolve();
        return;
      }
      if (!this.source || performance.now() - this.lastReadAt > READ_IDLE_MS) {
        this.swap(next, retire)?.();
        resolve();
        // Tell a waiting reader (the resource's start, the player's buffering) that audio is there.
        this.emit('readable');
        return;
      }
      const entry = { source: next, retire, done: resolve };
      this.pending = entry;
      setTimeout(() => {
        if (this.pending === entry) this.takePending();
      }, SWITCH_WAIT_MS).unref();
    });
  }

  /** Five silence frames, then the end: the last thing sent before a stop of transmission. */
  finish(): void {
    if (this.finishing) return;
    this.finishing = true;
    const pending = this.pending;
    this.pending = null;
    pending?.retire();
    pending?.done();
    this.retireSource?.();
    this.retireSource = null;
    this.source = null;
    for (let i = 0; i < SILENCE_FRAMES_BEFORE_STOP; i++) this.tail.push(SILENCE_FRAME);
  }

  get isFinishing(): boolean {
    return this.finishing;
  }

  override read(size?: number): Buffer | null {
    // Node calls read(0) to prime a stream when a 'readable' listener is added: take nothing then.
    if (size === 0 || this.destroyed) return null;
    if (this.finishing) {
      const frame = this.tail.shift();
      if (this.tail.length === 0) setImmediate(() => this.destroy());
      return frame ?? null;
    }
    this.lastReadAt = performance.now();
    if (this.pending) this.takePending();
    const source = this.source;
    if (!source) return null;
    return this.render(source) ? this.encoder.encode(this.pcm16) : null;
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.encoder.close();
    callback(err);
  }

  /** The next 20 ms of `source` through the live chain into `pcm16`; false when there is none (yet). */
  private render(source: PcmSource): boolean {
    const rate = this.chain.rate;
    const need = this.resampler.needed(FRAME, rate);
    if (need > 0) {
      const pcm = source.pcm;
      if (pcm.frames < need && !pcm.ended) {
        this.underruns++;
        return false;
      }
      if (pcm.frames === 0 && this.resampler.position >= this.taken - 3) {
        // Played to its end (the cubic's last frames of look-ahead were padding).
        if (!this.endSignalled) {
          this.endSignalled = true;
          setImmediate(() => {
            if (this.source === source) this.onSourceEnd(source);
          });
        }
        return false;
      }
      if (this.input.length < need * 2) this.input = new Float32Array(need * 2);
      const got = pcm.read(this.input, need);
      this.input.fill(0, got * 2, need * 2); // the song's end: its last frame padded with silence
      this.taken += got;
      this.resampler.push(this.input, need);
    }
    const out = this.out;
    this.resampler.render(out, FRAME, rate);
    source.consumed = Math.min(this.resampler.position, this.taken);
    this.chain.process(out, FRAME);
    if (this.declick) {
      // A new source starts where the old one left off: the jump between them fades out over a few ms.
      this.declick = false;
      for (let ch = 0; ch < 2; ch++) {
        const jump = (this.last[ch] ?? 0) - (out[ch] ?? 0);
        for (let i = 0; i < DECLICK_FRAMES; i++) {
          out[i * 2 + ch] = (out[i * 2 + ch] ?? 0) + jump * (1 - (i + 1) / DECLICK_FRAMES);
        }
      }
    }
    this.last[0] = out[(FRAME - 1) * 2] ?? 0;
    this.last[1] = out[(FRAME - 1) * 2 + 1] ?? 0;
    const pcm16 = this.pcm16;
    for (let i = 0; i < FRAME * 2; i++) {
      const v = (out[i] ?? 0) * 32768;
      pcm16[i] = v >= 32767 ? 32767 : v <= -32768 ? -32768 : Math.round(v);
    }
    return true;
  }

  /** The pending source becomes the current one; the old one is retired after this turn of the loop. */
  private takePending(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    const retireOld = this.swap(p.source, p.retire);
    setImmediate(() => {
      retireOld?.();
      p.done();
    });
  }

  /** Installs `next`; returns how to retire the source it replaces. */
  private swap(next: PcmSource, retire: Retire): Retire | null {
    const retireOld = this.retireSource;
    this.declick = this.source !== null;
    this.source = next;
    this.retireSource = retire;
    this.resampler.reset();
    this.taken = 0;
    this.endSignalled = false;
    // At once at a new song (a switch between two songs has no ramp); the same song's new ffmpeg (a seek)
    // has the same gain, which leaves a ramp in progress alone.
    this.chain.setSourceGain(next.gainDb, 0);
    return retireOld;
  }
}
