import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { SAMPLE_RATE } from './dsp/biquad.ts';

/** Bytes per stereo frame of 32-bit floats (ffmpeg's `-f f32le -ac 2`). */
export const FRAME_BYTES = 8;
/** Decoded audio held ahead of the listener: seconds of it, so a busy core never starves the voice player. */
const AHEAD_FRAMES = SAMPLE_RATE * 4;

/** Room above the limit: a pipe read in flight when the limit is reached still fits (Node reads ≤ 64 KiB). */
const SLACK_BYTES = 256 * 1024;
/** Rings kept for the next tracks (a seek, the next song): a few per process, 1.8 MB each. */
const SPARE_RINGS = 4;
const spareRings: Buffer[] = [];

/**
 * The decoded audio of one ffmpeg (48 kHz stereo f32le on its stdout), held in the server up to a few
 * seconds ahead: ffmpeg decodes as fast as it can until then and waits on the pipe after (backpressure).
 * `read` takes whole frames. Emits 'data' when more arrived and 'end' once ffmpeg's output has ended.
 *
 * Each pipe read is copied into one ring (reused by the next track when this one is destroyed) and let go
 * of at once, so the reads die young in the scavenges. Held for seconds as they were before, they lived into
 * the old generation, whose limit V8 counts their memory against: a seek's burst of 4 s of audio (1.5 MB)
 * then started a full mark-compact of the heap (5–12 ms in the main thread, with incremental steps up to
 * 12 ms) and the voice packet due meanwhile went out up to 25 ms late.
 */
export class PcmBuffer extends EventEmitter {
  private ring: Buffer;
  /** Where the next byte is read from, and how many are held. */
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
    this.ring = takeRing(this.limit + SLACK_BYTES);
    stream.on('data', (chunk: Buffer) => {
      this.write(chunk);
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
    const want = n * FRAME_BYTES;
    this.copyHeld(Buffer.from(into.buffer, into.byteOffset, want), want);
    this.head = (this.head + want) % this.ring.length;
    this.bytes -= want;
    if (this.paused && this.bytes < this.limit / 2) {
      this.paused = false;
      this.stream.resume();
    }
    return n;
  }

  /** Stops reading (the source is let go of); what is held is dropped and its ring kept for the next. */
  destroy(): void {
    this.bytes = 0;
    this.head = 0;
    this.stream.destroy();
    const ring = this.ring;
    this.ring = Buffer.alloc(0);
    if (ring.length > 0 && spareRings.length < SPARE_RINGS) spareRings.push(ring);
  }

  /** Appends a pipe read at the ring's tail (wrapping), growing the ring if it would not fit. */
  private write(chunk: Buffer): void {
    if (this.ring.length === 0) return; // destroyed: a read still in flight is dropped
    if (this.bytes + chunk.length > this.ring.length) this.grow(this.bytes + chunk.length + SLACK_BYTES);
    const size = this.ring.length;
    const tail = (this.head + this.bytes) % size;
    const first = Math.min(chunk.length, size - tail);
    chunk.copy(this.ring, tail, 0, first);
    if (first < chunk.length) chunk.copy(this.ring, 0, first);
    this.bytes += chunk.length;
  }

  /** A larger ring with what is held at its start (a pipe that delivered more than the slack). */
  private grow(size: number): void {
    const bigger = Buffer.allocUnsafe(size);
    this.copyHeld(bigger, this.bytes);
    this.ring = bigger;
    this.head = 0;
  }

  /** Copies the first `bytes` held (from the head, across the ring's wrap) to the start of `target`. */
  private copyHeld(target: Buffer, bytes: number): void {
    const first = Math.min(bytes, this.ring.length - this.head);
    this.ring.copy(target, 0, this.head, this.head + first);
    if (first < bytes) this.ring.copy(target, first, 0, bytes - first);
  }
}

/** A ring of at least `size` bytes: one a destroyed buffer left, or a new one. */
function takeRing(size: number): Buffer {
  const at = spareRings.findIndex((r) => r.length >= size);
  if (at !== -1) return spareRings.splice(at, 1)[0] as Buffer;
  return Buffer.allocUnsafe(size);
}
