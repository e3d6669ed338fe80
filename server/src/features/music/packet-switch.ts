import { Readable } from 'node:stream';

/** Opus's three-byte silence frame (Discord's voice docs: five of them before a pause in transmission). */
export const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);
export const SILENCE_FRAMES_BEFORE_STOP = 5;

/** One source of Opus packets (an ffmpeg's demuxed output), and how many of its frames were handed on. */
export type PacketSource = { packets: Readable; frames: number };

/** Ends a source the switch has let go of (kills its ffmpeg). */
export type Retire = () => void;

/** Without a read for this long the player is paused or not started: a switch happens at once. */
const READ_IDLE_MS = 60;
/** A switch waiting for the player's next read happens by itself after this long (a pause meanwhile). */
const SWITCH_WAIT_MS = 100;

/**
 * The one stream the voice player reads for a whole session, whatever ffmpeg currently feeds it: a change
 * (effect, equalizer, seek, skip) starts a new ffmpeg while the current one keeps playing, and `switchTo`
 * swaps them between two 20 ms frames once the new one has its first packets. So a change is never a hole
 * in the audio, and nothing is inserted.
 *
 * `read()` is the voice player's own call, once per 20 ms frame: it takes the next packet straight from
 * the current source (no buffer of its own, so a switch is heard at the very next frame). The swap itself
 * happens inside that call, and what follows it (ending the old ffmpeg, the status push, the request's
 * answer) right after it: a whole frame before the player's next send, so that work never delays a packet.
 * `finish()` sends five silence frames and then ends the stream (the player goes idle).
 */
export class PacketSwitch extends Readable {
  private source: PacketSource | null = null;
  private retireSource: Retire | null = null;
  private pending: { source: PacketSource; retire: Retire; done: () => void } | null = null;
  private lastReadAt = Number.NEGATIVE_INFINITY;
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

  /**
   * Makes `next` the source at the player's next frame; `retire` ends it once it is let go of. Resolves
   * when the previous source has been retired (or when `next` was itself replaced before it played).
   */
  switchTo(next: PacketSource, retire: Retire): Promise<void> {
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
    const packet = source.packets.read() as Buffer | null;
    if (packet) source.frames++;
    return packet;
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
  private swap(next: PacketSource, retire: Retire): Retire | null {
    const retireOld = this.retireSource;
    this.source = next;
    this.retireSource = retire;
    next.packets.once('end', () => {
      if (this.source === next) this.onSourceEnd(next);
    });
    return retireOld;
  }
}
