import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FRAME_BYTES, PcmBuffer } from './pcm-buffer.ts';

const nextTurn = () => new Promise((r) => setImmediate(r));
const frames = (n: number, value = 0.5) => Buffer.from(new Float32Array(n * 2).fill(value).buffer);

describe('PcmBuffer: a decoder’s audio held ahead, with backpressure (issue 48)', () => {
  it('stops reading ffmpeg’s output at its limit and reads on once half of it was played', async () => {
    const stream = new PassThrough();
    const pcm = new PcmBuffer(stream, 1000);
    stream.write(frames(1200));
    await nextTurn();
    expect(pcm.frames).toBe(1200);
    expect(stream.isPaused()).toBe(true); // ffmpeg now waits on the pipe
    const into = new Float32Array(800 * 2);
    expect(pcm.read(into, 800)).toBe(800);
    expect(stream.isPaused()).toBe(false);
    expect(into[1599]).toBe(0.5);
  });

  it('reads whole frames across chunk boundaries, and says when the output has ended', async () => {
    const stream = new PassThrough();
    const pcm = new PcmBuffer(stream);
    const bytes = Buffer.concat([frames(3, 0.25), frames(2, -0.25)]);
    // Chunks that split frames (and floats) anywhere, as a pipe delivers them.
    stream.write(bytes.subarray(0, 13));
    stream.write(bytes.subarray(13, 30));
    stream.end(bytes.subarray(30));
    await nextTurn();
    await nextTurn();
    expect(pcm.frames).toBe(5);
    expect(pcm.ended).toBe(true);
    const into = new Float32Array(10);
    expect(pcm.read(into, 10)).toBe(5);
    expect([...into]).toEqual([0.25, 0.25, 0.25, 0.25, 0.25, 0.25, -0.25, -0.25, -0.25, -0.25]);
    expect(pcm.frames).toBe(0);
    expect(bytes.length).toBe(5 * FRAME_BYTES);
  });

  it('keeps the audio in order through many times its ring, written and read in odd sizes, and a destroyed one’s ring serves the next', async () => {
    const ahead = 1000; // frames: a ring of 8000 bytes plus its slack
    let written = 0;
    let expected = 0;
    for (let round = 0; round < 2; round++) {
      const stream = new PassThrough();
      const pcm = new PcmBuffer(stream, ahead);
      const into = new Float32Array(2 * 333);
      // Each float is its own index: any byte out of place shows. 3 MB pass through, 40 times the ring.
      while (written < (round + 1) * 400_000) {
        const n = 37 + (written % 211);
        const chunk = new Float32Array(n * 2);
        for (let i = 0; i < chunk.length; i++) chunk[i] = written * 2 + i;
        written += n;
        stream.write(Buffer.from(chunk.buffer));
        await nextTurn();
        while (pcm.frames >= 333 || (pcm.frames > 0 && written % 3 === 0)) {
          const got = pcm.read(into, 333);
          for (let i = 0; i < got * 2; i++) expect(into[i]).toBe(expected++);
        }
      }
      const rest = pcm.read(into, 333);
      for (let i = 0; i < rest * 2; i++) expect(into[i]).toBe(expected++);
      expect(expected).toBe(written * 2);
      pcm.destroy();
      expect(pcm.frames).toBe(0);
    }
  });
});
