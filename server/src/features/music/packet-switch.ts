import { type Duplex, Readable } from 'node:stream';

/** Opus's three-byte silence frame (Discord's voice docs: five of them before a pause in transmission). */
export const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);
export const SILENCE_FRAMES_BEFORE_STOP = 5;

/** One source of Opus packets (an ffmpeg's demuxed output), and how many of its frames were handed on. */
export type PacketSource = {
  packets: Readable;
  frames: number;
  /**
   * A source paced to real time (the live chain): at the switch, each of its packets must be there at least
   * this long before the player takes it (see `slack`); absent: it runs ahead, any time is right.
   */
  minSlackMs?: number;
  /** performance.now() when its last output came in (a paced source's next comes 20 ms later). */
  lastOutputAt?: () => number;
};

/** Ends a source the switch has let go of (kills its ffmpeg). */
export type Retire = () => void;

/** Without a read for this long the player is paused or not started: a switch happens at once. */
const READ_IDLE_MS = 60;
/** A switch waiting for the player's next read happens by itself after this long (a pause meanwhile). */
const SWITCH_WAIT_MS = 100;
/**
 * More packets than this queued behind the one read, beyond a paced source's margin: it runs that far ahead
 * of the listener (a paced ffmpeg after a pause, or after the player fell behind in a stall of the event
 * loop; an unpaced one always does), and every live change would be heard that much later. Said once per
 * source.
 */
const LAGGING_PACKETS = 4;

/**
 * How long before the player takes them a paced source's packets would be there if it became the current
 * one at this read: the player takes one per 20 ms, ffmpeg delivers one per 20 ms, so the margin stays what it
 * is at the switch — 20 ms per packet queued, less the time until the next one comes.
 */
function slack(source: PacketSource, now: number): number {
  const queued = source.packets.readableLength;
  const next = Math.min(20, Math.max(0, (source.lastOutputAt?.() ?? now) + 20 - now));
  return queued * 20 - next;
}

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
  /** Called once per source when it has more than LAGGING_PACKETS queued at a read. */
  onLagging: (source: PacketSource) => void = () => {};
  /** Called when a read finds no packet while the source is still running (it fell behind the player). */
  onMissed: (source: PacketSource) => void = () => {};
  private lagging: PacketSource | null = null;
  private aheadReads = 0;

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
      setTimeout(
        () => {
          if (this.pending === entry) this.takePending();
        },
        SWITCH_WAIT_MS + (next.minSlackMs ?? 0),
      ).unref();
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
    const now = performance.now();
    const previousReadAt = this.lastReadAt;
    this.lastReadAt = now;
    if (this.pending) {
      const next = this.pending.source;
      const min = next.minSlackMs ?? 0;
      let margin = slack(next, now);
      // A paced source is taken at the first read where its margin holds (at most a frame later), with no
      // more than a frame beyond it: a whole frame more (its burst) is skipped, counted as played, since
      // every frame queued at the switch is a frame later that each live change is heard. (20 ms of a new
      // position or song, not of the audio playing.)
      if (margin >= min) {
        while (next.minSlackMs !== undefined && margin - 20 >= min && next.packets.readableLength > 1) {
          next.packets.read();
          next.frames++;
          margin -= 20;
        }
        this.takePending();
      }
    }
    const source = this.source;
    if (!source) return null;
    const packet = source.packets.read() as Buffer | null;
    if (packet) source.frames++;
    // Reads in quick succession are the player catching up after a stall of the event loop: a paced source
    // has nothing for them (it keeps to real time, not to the player's backlog), which is the stall's doing.
    // A read a frame after the last that finds nothing is the source's.
    const paced = now - previousReadAt >= 15;
    if (!packet && paced && !(source.packets as Partial<Duplex>).writableFinished) {
      this.onMissed(source);
    }
    // Too much queued at reads a frame apart: the player keeps its pace, the source is ahead of it.
    const margin = Math.ceil((source.minSlackMs ?? 0) / 20);
    this.aheadReads =
      paced && source.packets.readableLength > LAGGING_PACKETS + margin ? this.aheadReads + 1 : 0;
    if (this.aheadReads >= 3 && this.lagging !== source) {
      this.lagging = source;
      // After this frame's turn: whatever the player does with it must not wait for it.
      setImmediate(() => this.onLagging(source));
    }
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
