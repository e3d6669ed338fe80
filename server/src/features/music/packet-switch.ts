import { Readable } from 'node:stream';

/** Opus's three-byte silence frame (Discord's voice docs: five of them before a pause in transmission). */
export const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);
export const SILENCE_FRAMES_BEFORE_STOP = 5;

/** One source of Opus packets (an ffmpeg's demuxed output), and how many of its frames were handed on. */
export type PacketSource = { packets: Readable; frames: number };

/**
 * The one stream the voice player reads for a whole session, whatever ffmpeg currently feeds it: a change
 * (effect, equalizer, seek, skip) starts a new ffmpeg while the current one keeps playing, and `switchTo`
 * swaps them between two 20 ms frames once the new one has its first packet. So a change is never a hole
 * in the audio, and nothing is inserted.
 *
 * `read()` is the voice player's own call, once per 20 ms frame: it takes the next packet straight from
 * the current source (no buffer of its own, so a switch is heard at the very next frame). `finish()`
 * sends five silence frames and then ends the stream (the player goes idle).
 */
export class PacketSwitch extends Readable {
  private source: PacketSource | null = null;
  private readonly tail: Buffer[] = [];
  private finishing = false;
  /** Called when the current source ends by itself (the song played to its end, or ffmpeg died). */
  onSourceEnd: (source: PacketSource) => void = () => {};

  constructor() {
    super({ objectMode: true, read() {} });
  }

  get current(): PacketSource | null {
    return this.source;
  }

  /** Makes `next` the source from the next frame on; the previous one is left to its owner to stop. */
  switchTo(next: PacketSource): void {
    this.source = next;
    next.packets.once('end', () => {
      if (this.source === next) this.onSourceEnd(next);
    });
    // Tell a waiting reader (the resource's start, the player's buffering) that audio is there.
    this.emit('readable');
  }

  /** Five silence frames, then the end: the last thing sent before a stop of transmission. */
  finish(): void {
    if (this.finishing) return;
    this.finishing = true;
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
    const source = this.source;
    if (!source) return null;
    const packet = source.packets.read() as Buffer | null;
    if (packet) source.frames++;
    return packet;
  }
}
