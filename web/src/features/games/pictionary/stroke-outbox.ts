import { PICTIONARY_MAX_SEGMENTS_PER_BATCH, type PictionaryDrawBody } from '@guildhall/common';

type StrokeData = PictionaryDrawBody['strokeData'];

/**
 * The drawer's outgoing strokes: sent in the order drawn, one message at a time (each waits for the
 * server's answer). Batches queued behind a slow answer that continue the same stroke go out as one
 * message, so a slow connection or server makes the drawing arrive in fewer, larger messages instead of
 * falling further behind with every 50 ms batch (and staying under the server's draws-per-second limit).
 */
export function createStrokeOutbox(send: (data: StrokeData) => Promise<void>) {
  const queue: StrokeData[] = [];
  /** The loop sending the queue, while there is one. */
  let pumping: Promise<void> | null = null;

  const next = (): StrokeData => {
    const first = queue.shift()!;
    if (first.type !== 'stroke_batch' || first.strokeId === undefined) return first;
    const segments = [...first.segments];
    for (
      let more = queue[0];
      more?.type === 'stroke_batch' &&
      more.strokeId === first.strokeId &&
      segments.length + more.segments.length <= PICTIONARY_MAX_SEGMENTS_PER_BATCH;
      more = queue[0]
    ) {
      segments.push(...more.segments);
      queue.shift();
    }
    return { ...first, segments };
  };

  const pump = async () => {
    while (queue.length > 0) {
      try {
        await send(next());
      } catch (e) {
        console.warn('Pictionary: draw failed', e);
      }
    }
    pumping = null;
  };

  return {
    push(data: StrokeData): void {
      queue.push(data);
      pumping ??= pump();
    },
    /** Resolves once everything pushed so far has been answered. */
    drained(): Promise<void> {
      return pumping ?? Promise.resolve();
    },
  };
}
