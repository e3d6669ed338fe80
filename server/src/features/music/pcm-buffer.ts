import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { SAMPLE_RATE } from './dsp/biquad.ts';

/** Bytes per stereo frame of 32-bit floats (ffmpeg's `-f f32le -ac 2`). */
export const FRAME_BYTES = 8;
/** Decoded audio held ahead of the listener: seconds of it, so a busy core never starves the voice player. */
const AHEAD_FRAMES = SAMPLE_RATE * 4;

/**
 * The decoded audio of one ffmpeg (48 kHz stereo f32le on its stdout), held in the server up to a few
 * seconds ahead: ffmpeg decodes as fast as it can until then and waits on the pipe after (backpressure).
 * `read` takes whole frames. Emits 'data' when more arrived and 'end' once ffmpeg's output has ended.
 */
export class PcmBuffer extends EventEmitter {
  private readonly chunks: Buffer[] = [];
  /** Bytes of chunks[0] already taken. */
  private head = 0;
  private bytes = 0;
  private isEnded = false;
  private paused = false;
  private readonly stream: Readable;
  private readonly limit: number;

  constructor(stream: Readable, aheadFrames = AHEAD_FRAMES) {
    super();
    this.stream = stream;
    this.limit = aheadFrames * FRAME_BYTES;
    stream.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.bytes += chunk.length;
      if (this.bytes >= this.limit && !this.paused) {
        this.paused = true;
        stream.pause();
      }
      this.emit('data');
    });
    const end = () => {
      if (this.isEnded) return;
      this.isEnded = true;
      this.emit('end');
    };
    stream.once('end', end);
    stream.once('close', end);
    // A broken pipe is the end of this source: the player sees ffmpeg's exit status and decides.
    stream.on('error', end);
  }

  /** Whole frames held now. */
  get frames(): number {
    return Math.floor(this.bytes / FRAME_BYTES);
  }

  /** Nothing more will come (what is held may still be read). */
  get ended(): boolean {
    return this.isEnded;
  }

  /** Copies up to `frames` frames into `into` (interleaved stereo floats); returns how many it copied. */
  read(into: Float32Array, frames: number): number {
    const n = Math.min(frames, this.frames);
    let want = n * FRAME_BYTES;
    const target = Buffer.from(into.buffer, into.byteOffset, want);
    let at = 0;
    while (want > 0) {
      const chunk = this.chunks[0];
      if (!chunk) break;
      const take = Math.min(want, chunk.length - this.head);
      chunk.copy(target, at, this.head, this.head + take);
      at += take;
      want -= take;
      this.head += take;
      if (this.head === chunk.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
    this.bytes -= n * FRAME_BYTES;
    if (this.paused && this.bytes < this.limit / 2) {
      this.paused = false;
      this.stream.resume();
    }
    return n;
  }

  /** Stops reading (the source is let go of); what is held is dropped. */
  destroy(): void {
    this.chunks.length = 0;
    this.bytes = 0;
    this.head = 0;
    this.stream.destroy();
  }
}
