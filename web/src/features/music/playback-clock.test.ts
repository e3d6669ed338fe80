import { DEFAULT_MUSIC_OPTIONS, FLAT_EQ, type PlaybackStatus } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import {
  anchorFromStatus,
  formatDuration,
  formatTime,
  newerStatus,
  percentOf,
  positionAt,
  seekTimeForPercent,
} from './playback-clock.ts';

const song = {
  id: 'f1',
  youtube_id: 'f1',
  title: 'Tone',
  uploader: 'Library',
  duration: 200,
  url: 'library:f1',
  thumbnail: null,
  platform: 'library' as const,
  entryId: 'e1',
  requestedBy: { avatar: null, displayName: 'ann' },
};

function status(over: Partial<PlaybackStatus> = {}): PlaybackStatus {
  return {
    guildId: '1',
    connected: true,
    isPlaying: true,
    isPaused: false,
    state: 'playing',
    currentSong: song,
    queue: [],
    history: [],
    activeEffects: [],
    eqSettings: FLAT_EQ,
    elapsedTime: 10,
    playbackRate: 1,
    serverTime: '2026-11-23T18:00:00.000Z',
    voiceChannel: { id: '9', name: 'Lounge' },
    listeners: 1,
    idle: false,
    botState: 'online',
    botStateSince: null,
    volume: 100,
    normalize: true,
    loop: 'off',
    options: DEFAULT_MUSIC_OPTIONS,
    skipVotes: { voters: [], needed: 1 },
    ...over,
  };
}

describe('scrubber position between updates', () => {
  it('advances one second per second while playing', () => {
    const a = anchorFromStatus(status(), 1000);
    expect(positionAt(a, 1000)).toBe(10);
    expect(positionAt(a, 3500)).toBeCloseTo(12.5);
  });

  it('advances 1.25 s per second under nightcore and 0.8 under slowed', () => {
    expect(positionAt(anchorFromStatus(status({ playbackRate: 1.25 }), 0), 4000)).toBeCloseTo(15);
    expect(positionAt(anchorFromStatus(status({ playbackRate: 0.8 }), 0), 5000)).toBeCloseTo(14);
  });

  it('stands still while paused or stopped', () => {
    expect(positionAt(anchorFromStatus(status({ state: 'paused', isPaused: true }), 0), 9000)).toBe(10);
    expect(positionAt(anchorFromStatus(status({ state: 'stopped', isPlaying: false }), 0), 9000)).toBe(10);
  });

  it('is corrected by the next update: a new anchor replaces the extrapolation', () => {
    const first = anchorFromStatus(status(), 0);
    expect(positionAt(first, 2000)).toBe(12);
    // The server says 11.5 at that moment (e.g. a stall): the panel follows the server.
    const corrected = anchorFromStatus(status({ elapsedTime: 11.5 }), 2000);
    expect(positionAt(corrected, 3000)).toBeCloseTo(12.5);
  });

  it('never passes the end of the song, never goes below 0, and has no end for an unknown length', () => {
    expect(positionAt(anchorFromStatus(status({ elapsedTime: 199 }), 0), 10_000)).toBe(200);
    expect(positionAt(anchorFromStatus(status(), 5000), 1000)).toBe(10);
    const live = anchorFromStatus(status({ currentSong: { ...song, duration: 0 }, elapsedTime: 500 }), 0);
    expect(positionAt(live, 1000)).toBe(501);
  });
});

describe('seek target', () => {
  it('clamps the percentage to 0–100 and converts to seconds', () => {
    expect(seekTimeForPercent(50, 200)).toBe(100);
    expect(seekTimeForPercent(-5, 200)).toBe(0);
    expect(seekTimeForPercent(140, 200)).toBe(200);
    expect(seekTimeForPercent(Number.NaN, 200)).toBe(0);
    expect(percentOf(50, 200)).toBe(25);
    expect(percentOf(50, 0)).toBe(0);
  });
});

describe('time format', () => {
  it('shows m:ss, and h:mm:ss from an hour', () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(65.9)).toBe('1:05');
    expect(formatTime(3725)).toBe('1:02:05');
    expect(formatTime(-3)).toBe('0:00');
    expect(formatDuration(0)).toBe('–');
    expect(formatDuration(61)).toBe('1:01');
  });
});

describe('newer status', () => {
  it('keeps the later of two updates, so a slow poll cannot undo a push', () => {
    const pushed = status({ serverTime: '2026-11-23T18:00:02.000Z', elapsedTime: 12 });
    const slowPoll = status({ serverTime: '2026-11-23T18:00:01.000Z', elapsedTime: 11 });
    expect(newerStatus(pushed, slowPoll)).toBe(pushed);
    expect(newerStatus(slowPoll, pushed)).toBe(pushed);
    expect(newerStatus(pushed, status({ guildId: '2' })).guildId).toBe('2');
  });
});
