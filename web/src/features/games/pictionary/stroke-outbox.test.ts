import { PICTIONARY_MAX_SEGMENTS_PER_BATCH, type PictionaryDrawBody } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { createStrokeOutbox } from './stroke-outbox.ts';

type StrokeData = PictionaryDrawBody['strokeData'];

const seg = (n: number) => ({
  type: 'line' as const,
  from: { x: n, y: 0 },
  to: { x: n + 1, y: 0 },
  color: '#000000',
  size: 5,
  timestamp: n,
});
const batch = (strokeId: number | undefined, ...xs: number[]): StrokeData => ({
  type: 'stroke_batch',
  segments: xs.map(seg),
  timestamp: 0,
  ...(strokeId === undefined ? {} : { strokeId }),
});
const xsOf = (d: StrokeData) => (d.type === 'stroke_batch' ? d.segments.map((s) => s.from.x) : d.type);

/** A server whose answers the test releases one by one. */
function slowServer() {
  const sent: StrokeData[] = [];
  const answers: (() => void)[] = [];
  const send = (d: StrokeData) => {
    sent.push(d);
    return new Promise<void>((resolve) => answers.push(resolve));
  };
  const answerNext = async () => {
    answers.shift()!();
    // Lets the outbox take its next message (a few microtask turns, no timer).
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { sent, send, answerNext };
}

describe('the drawer’s stroke outbox (issue 29: every screen ends with the same pixels)', () => {
  it('sends one message at a time, in order, and merges the batches of one stroke queued behind a slow answer', async () => {
    const server = slowServer();
    const outbox = createStrokeOutbox(server.send);
    outbox.push(batch(1, 1, 2));
    outbox.push(batch(1, 3));
    outbox.push(batch(1, 4, 5));
    expect(server.sent.map(xsOf)).toEqual([[1, 2]]);
    await server.answerNext();
    expect(server.sent.map(xsOf)).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    await server.answerNext();
    await outbox.drained();
  });

  it('never merges across another stroke, a fill, an undo or a clear, so the order drawn is kept', async () => {
    const server = slowServer();
    const outbox = createStrokeOutbox(server.send);
    outbox.push(batch(1, 1));
    outbox.push(batch(1, 2));
    outbox.push({ type: 'undo', timestamp: 0 });
    outbox.push(batch(1, 3));
    outbox.push(batch(2, 4));
    outbox.push(batch(undefined, 5));
    outbox.push(batch(undefined, 6));
    outbox.push({ type: 'clear', timestamp: 0 });
    for (let i = 0; i < 8 && server.sent.length < 7; i++) await server.answerNext();
    expect(server.sent.map(xsOf)).toEqual([[1], [2], 'undo', [3], [4], [5], [6]]);
    await server.answerNext();
    expect(server.sent.map(xsOf).at(-1)).toBe('clear');
    await server.answerNext();
    await outbox.drained();
  });

  it('keeps a merged message within the server’s batch limit', async () => {
    const server = slowServer();
    const outbox = createStrokeOutbox(server.send);
    const half = Array.from({ length: PICTIONARY_MAX_SEGMENTS_PER_BATCH / 2 + 1 }, (_, i) => i);
    outbox.push(batch(1, 0));
    outbox.push(batch(1, ...half));
    outbox.push(batch(1, ...half));
    await server.answerNext();
    await server.answerNext();
    expect(server.sent.map((d) => (d.type === 'stroke_batch' ? d.segments.length : 0))).toEqual([
      1,
      half.length,
      half.length,
    ]);
  });

  it('a failed send does not stop the ones after it', async () => {
    const sent: StrokeData[] = [];
    const outbox = createStrokeOutbox(async (d) => {
      sent.push(d);
      if (sent.length === 1) throw new Error('offline');
    });
    outbox.push(batch(1, 1));
    outbox.push(batch(2, 2));
    await outbox.drained();
    expect(sent.map(xsOf)).toEqual([[1], [2]]);
  });
});
