import { PICTIONARY_EVENTS } from '@guildhall/common';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { emitClientEvent } from './socket.ts';

/** Just enough of a Socket for emitClientEvent: an ack answered with `reply`, the sends recorded. */
function socketAnswering(reply: unknown) {
  const sent: [string, unknown][] = [];
  const socket = {
    timeout: () => ({
      emitWithAck: async (event: string, payload: unknown) => {
        sent.push([event, payload]);
        return reply;
      },
    }),
  } as unknown as Socket;
  return { socket, sent };
}

const draw = {
  gameId: '00000000-0000-4000-8000-000000000000',
  strokeData: { type: 'clear' as const, timestamp: 1 },
};

describe('emitClientEvent: a client event and its ack, by the schemas of CLIENT_EVENTS', () => {
  it('sends the declared payload and returns the parsed result', async () => {
    const { socket, sent } = socketAnswering({ ok: true, turnNumber: 3, message: 'OK' });
    expect(await emitClientEvent(socket, PICTIONARY_EVENTS.draw, draw)).toEqual({
      ok: true,
      turnNumber: 3,
      message: 'OK',
    });
    expect(sent).toEqual([[PICTIONARY_EVENTS.draw, draw]]);
  });

  it('returns a refusal with its catalogue code', async () => {
    const refusal = { ok: false, error: 'Only the drawer can draw', code: 'NOT_DRAWER' };
    const { socket } = socketAnswering(refusal);
    expect(await emitClientEvent(socket, PICTIONARY_EVENTS.draw, draw)).toEqual(refusal);
  });

  it('rejects an ack the contract does not allow (a code outside the catalogue, a missing result)', async () => {
    const unknownCode = socketAnswering({ ok: false, error: 'x', code: 'NOT_A_CODE' });
    await expect(emitClientEvent(unknownCode.socket, PICTIONARY_EVENTS.draw, draw)).rejects.toThrow();
    const noResult = socketAnswering({ ok: true });
    await expect(emitClientEvent(noResult.socket, PICTIONARY_EVENTS.draw, draw)).rejects.toThrow();
  });
});
