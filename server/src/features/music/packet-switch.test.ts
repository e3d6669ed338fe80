import { PassThrough } from 'node:stream';
import { FLAT_EQ } from '@guildhall/common';
import { describe, expect, it, vi } from 'vitest';
import { type FrameEncoder, PacketSwitch, type PcmSource, SILENCE_FRAME } from './packet-switch.ts';
import { PcmBuffer } from './pcm-buffer.ts';

const FRAME = 960;
const nextTurn = () => new Promise((r) => setImmediate(r));

/**
 * A decoded source of `frames` stereo frames all at `level` (what the fake encoder below reports), written
 * as ffmpeg writes them; `end` closes it as ffmpeg's exit does.
 */
async function source(
  level: number,
  frames: number,
  end = false,
): Promise<PcmSource & { stream: PassThrough }> {
  const stream = new PassThrough();
  const pcm = new PcmBuffer(stream);
  const samples = new Float32Array(frames * 2).fill(level);
  stream.write(Buffer.from(samples.buffer));
  if (end) stream.end();
  await nextTurn();
  return { pcm, consumed: 0, gainDb: 0, stream };
}

/** An encoder that "encodes" a frame as the percentage level of its last sample (the first ones may be faded). */
function fakeEncoder() {
  const close = vi.fn<() => void>();
  const encoder: FrameEncoder = {
    encode: (pcm) => Buffer.from(String(Math.round(((pcm[pcm.length - 1] ?? 0) / 32768) * 100))),
    close,
  };
  return Object.assign(encoder, { close });
}
const text = (b: Buffer | null) => b?.toString() ?? null;
const live = (volume = 100) => ({ effects: [], eq: FLAT_EQ, volume });

describe('PacketSwitch: the one stream the voice player reads (issues 27 and 48)', () => {
  it('a change while playing is taken at the player’s next frame; the old source is ended after that frame', async () => {
    const out = new PacketSwitch(fakeEncoder(), live());
    const oldRetire = vi.fn();
    await out.switchTo(await source(0.1, FRAME * 3), oldRetire);
    expect(text(out.read())).toBe('10');
    const newRetire = vi.fn();
    let switched = false;
    const done = out.switchTo(await source(0.2, FRAME * 2), newRetire).then(() => {
      switched = true;
    });
    await nextTurn();
    // Not yet: the swap waits for the player's read, so the work after it never delays a packet.
    expect(switched).toBe(false);
    expect(oldRetire).not.toHaveBeenCalled();
    expect(text(out.read())).toBe('20');
    expect(oldRetire).not.toHaveBeenCalled(); // ended right after this frame, not inside it
    await done;
    expect(oldRetire).toHaveBeenCalledTimes(1);
    expect(newRetire).not.toHaveBeenCalled();
    expect(text(out.read())).toBe('20');
  });

  it('with no read for a while (paused, not started) a change is taken at once', async () => {
    const out = new PacketSwitch(fakeEncoder(), live());
    const oldRetire = vi.fn();
    await out.switchTo(await source(0.1, FRAME), oldRetire);
    await out.switchTo(await source(0.2, FRAME), vi.fn());
    expect(oldRetire).toHaveBeenCalledTimes(1);
    expect(text(out.read())).toBe('20');
  });

  it('a change replaced before it played is ended without ever playing', async () => {
    const out = new PacketSwitch(fakeEncoder(), live());
    await out.switchTo(await source(0.1, FRAME * 2), vi.fn());
    out.read();
    const firstRetire = vi.fn();
    const b = await source(0.2, FRAME);
    const c = await source(0.3, FRAME);
    const first = out.switchTo(b, firstRetire);
    const second = out.switchTo(c, vi.fn());
    await first;
    expect(firstRetire).toHaveBeenCalledTimes(1);
    expect(text(out.read())).toBe('30');
    await second;
  });

  it('a change is taken by itself when the player stops reading meanwhile (a pause)', async () => {
    const out = new PacketSwitch(fakeEncoder(), live());
    const oldRetire = vi.fn();
    await out.switchTo(await source(0.1, FRAME), oldRetire);
    out.read();
    await out.switchTo(await source(0.2, FRAME), vi.fn()); // no read follows: resolves after its wait, not never
    expect(oldRetire).toHaveBeenCalledTimes(1);
    expect(text(out.read())).toBe('20');
  });

  it('finish ends every source it holds, sends five silence frames, and frees the encoder', async () => {
    const encoder = fakeEncoder();
    const out = new PacketSwitch(encoder, live());
    const a = vi.fn();
    const b = vi.fn();
    await out.switchTo(await source(0.1, FRAME * 2), a);
    out.read();
    const pending = out.switchTo(await source(0.2, FRAME), b);
    out.finish();
    await pending;
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    const frames = [out.read(), out.read(), out.read(), out.read(), out.read()];
    expect(frames.every((f) => f?.equals(SILENCE_FRAME))).toBe(true);
    await new Promise((r) => out.once('close', r));
    expect(encoder.close).toHaveBeenCalledTimes(1);
  });

  it('a volume change is heard in the very next packet, with no new source', async () => {
    const out = new PacketSwitch(fakeEncoder(), live(100));
    await out.switchTo(await source(0.4, FRAME * 3), vi.fn());
    expect(text(out.read())).toBe('40');
    out.chain.set(live(50));
    expect(text(out.read())).toBe('20');
  });

  it('a source with less than a frame ready gives nothing (the player sends silence) and loses nothing', async () => {
    const out = new PacketSwitch(fakeEncoder(), live());
    const s = await source(0.1, FRAME / 2);
    await out.switchTo(s, vi.fn());
    expect(out.read()).toBeNull();
    expect(out.underruns).toBe(1);
    expect(s.consumed).toBe(0);
    s.stream.write(Buffer.from(new Float32Array(FRAME).fill(0.1).buffer));
    await nextTurn();
    expect(text(out.read())).toBe('10');
    expect(s.consumed).toBe(FRAME);
  });

  it('the song’s end pads its last partial frame with silence, then says the source ended', async () => {
    const out = new PacketSwitch(fakeEncoder(), live());
    const s = await source(0.1, FRAME + FRAME / 2, true);
    const ended = vi.fn();
    out.onSourceEnd = ended;
    await out.switchTo(s, vi.fn());
    expect(text(out.read())).toBe('10');
    expect(text(out.read())).toBe('0'); // half a frame of song, then silence
    expect(s.consumed).toBe(FRAME + FRAME / 2);
    expect(out.read()).toBeNull();
    await nextTurn();
    expect(ended).toHaveBeenCalledWith(s);
  });

  it('under nightcore a frame consumes 1.25 frames of song (the elapsed time runs 1.25× as fast)', async () => {
    const out = new PacketSwitch(fakeEncoder(), { effects: ['nightcore'], eq: FLAT_EQ, volume: 100 });
    const s = await source(0.1, FRAME * 10);
    await out.switchTo(s, vi.fn());
    for (let i = 0; i < 4; i++) out.read();
    expect(s.consumed).toBe(4 * FRAME * 1.25);
  });
});
