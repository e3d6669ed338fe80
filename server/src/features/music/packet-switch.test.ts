import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { type PacketSource, PacketSwitch, SILENCE_FRAME } from './packet-switch.ts';

/** A source holding the given packets (object mode, like the Ogg demuxer's output). */
function source(...packets: string[]): PacketSource {
  const stream = new PassThrough({ objectMode: true });
  for (const p of packets) stream.write(Buffer.from(p));
  return { packets: stream, frames: 0 };
}
const text = (b: Buffer | null) => b?.toString() ?? null;
const nextTurn = () => new Promise((r) => setImmediate(r));

describe('PacketSwitch: the one stream the voice player reads (issue 27: gapless changes)', () => {
  it('a change while playing is taken at the player’s next frame; the old source is ended after that frame', async () => {
    const out = new PacketSwitch();
    const oldRetire = vi.fn();
    await out.switchTo(source('a1', 'a2', 'a3'), oldRetire);
    expect(text(out.read())).toBe('a1');
    const newRetire = vi.fn();
    let switched = false;
    const done = out.switchTo(source('b1', 'b2'), newRetire).then(() => {
      switched = true;
    });
    await nextTurn();
    // Not yet: the swap waits for the player's read, so the work after it never delays a packet.
    expect(switched).toBe(false);
    expect(oldRetire).not.toHaveBeenCalled();
    expect(text(out.read())).toBe('b1');
    expect(oldRetire).not.toHaveBeenCalled(); // ended right after this frame, not inside it
    await done;
    expect(oldRetire).toHaveBeenCalledTimes(1);
    expect(newRetire).not.toHaveBeenCalled();
    expect(text(out.read())).toBe('b2');
  });

  it('with no read for a while (paused, not started) a change is taken at once', async () => {
    const out = new PacketSwitch();
    const oldRetire = vi.fn();
    await out.switchTo(source('a1'), oldRetire);
    await out.switchTo(source('b1'), vi.fn());
    expect(oldRetire).toHaveBeenCalledTimes(1);
    expect(text(out.read())).toBe('b1');
  });

  it('a change replaced before it played is ended without ever playing', async () => {
    const out = new PacketSwitch();
    await out.switchTo(source('a1', 'a2'), vi.fn());
    out.read();
    const firstRetire = vi.fn();
    const first = out.switchTo(source('b1'), firstRetire);
    const second = out.switchTo(source('c1'), vi.fn());
    await first;
    expect(firstRetire).toHaveBeenCalledTimes(1);
    expect(text(out.read())).toBe('c1');
    await second;
  });

  it('a change is taken by itself when the player stops reading meanwhile (a pause)', async () => {
    const out = new PacketSwitch();
    const oldRetire = vi.fn();
    await out.switchTo(source('a1'), oldRetire);
    out.read();
    await out.switchTo(source('b1'), vi.fn()); // no read follows: resolves after its wait, not never
    expect(oldRetire).toHaveBeenCalledTimes(1);
    expect(text(out.read())).toBe('b1');
  });

  it('finish ends every source it holds and sends five silence frames', async () => {
    const out = new PacketSwitch();
    const a = vi.fn();
    const b = vi.fn();
    await out.switchTo(source('a1', 'a2'), a);
    out.read();
    const pending = out.switchTo(source('b1'), b);
    out.finish();
    await pending;
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    const frames = [out.read(), out.read(), out.read(), out.read(), out.read()];
    expect(frames.every((f) => f?.equals(SILENCE_FRAME))).toBe(true);
  });
});
