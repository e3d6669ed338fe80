import type { PictionaryGame } from '@guildhall/common';
import { useCallback, useEffect, useRef, useState } from 'react';
import { cuesFor, type SoundCue, tickDue } from './sound-cues.ts';
import { playCue } from './sounds.ts';

/**
 * Where the mute choice is kept: this browser's localStorage, under the member's id (the portal has no
 * per-member preferences on the server; the theme is kept the same way). Another member signing in on the
 * same browser has their own choice.
 */
export const muteKey = (memberId: string) => `guildhall.pictionary.muted.${memberId}`;

function readMuted(memberId: string): boolean {
  try {
    return localStorage.getItem(muteKey(memberId)) === '1';
  } catch {
    return false; // storage blocked: sounds on, the toggle still works for this page
  }
}

/**
 * The game's sound cues (issue 29): plays what each new state calls for (sound-cues.ts) and the clock's tick
 * in the last 10 seconds, unless this member muted them.
 */
export function useSounds(game: PictionaryGame | null, myId: string | undefined, clockOffset: number) {
  const [muted, setMutedState] = useState(() => (myId ? readMuted(myId) : false));
  useEffect(() => {
    if (myId) setMutedState(readMuted(myId));
  }, [myId]);
  const mutedRef = useRef(muted);
  mutedRef.current = muted;
  const play = useCallback((cue: SoundCue) => {
    if (!mutedRef.current) playCue(cue);
  }, []);

  const prev = useRef<PictionaryGame | null>(null);
  useEffect(() => {
    if (!game || !myId) {
      prev.current = null;
      return;
    }
    for (const cue of cuesFor(prev.current, game, myId)) play(cue);
    prev.current = game;
  }, [game, myId, play]);

  // The tick follows the phase's end time only: a new state of the same turn (a guess) does not restart it.
  const endsAt = game?.status === 'in_progress' && game.turnPhase === 'drawing' ? game.turnEndsAt : null;
  const offset = useRef(clockOffset);
  offset.current = clockOffset;
  useEffect(() => {
    if (!endsAt) return;
    let last: number | null = null;
    const t = setInterval(() => {
      const left = Math.max(0, Math.ceil((Date.parse(endsAt) - (Date.now() + offset.current)) / 1000));
      if (tickDue(last, left)) play('tick');
      last = left;
    }, 200);
    return () => clearInterval(t);
  }, [endsAt, play]);

  const setMuted = (next: boolean) => {
    setMutedState(next);
    if (!myId) return;
    try {
      if (next) localStorage.setItem(muteKey(myId), '1');
      else localStorage.removeItem(muteKey(myId));
    } catch {
      // storage blocked: the choice holds for this page only
    }
  };
  return { muted, setMuted };
}
