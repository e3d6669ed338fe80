// @vitest-environment jsdom
import {
  DEFAULT_MUSIC_OPTIONS,
  EQ_BANDS,
  FLAT_EQ,
  MUSIC_EQ_DEBOUNCE_MS,
  type PlaybackStatus,
} from '@guildhall/common';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BotBadge } from './BotBadge.tsx';
import { EffectsPanel } from './EffectsPanel.tsx';
import { NothingPlaying } from './NowPlaying.tsx';
import { Scrubber } from './Scrubber.tsx';
import { SessionPanel } from './SessionPanel.tsx';

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
const status = (over: Partial<PlaybackStatus> = {}): PlaybackStatus => ({
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
  listeners: 2,
  idle: false,
  botState: 'online',
  botStateSince: null,
  volume: 100,
  normalize: true,
  loop: 'off',
  options: DEFAULT_MUSIC_OPTIONS,
  skipVotes: { voters: [], needed: 1 },
  ...over,
});

afterEach(cleanup);

describe('bot badge', () => {
  it('shows Offline, Reconnecting with how long, Paused, the listener count, or Idle', () => {
    const { rerender } = render(<BotBadge status={null} />);
    expect(screen.getByTestId('bot-badge').textContent).toBe('Offline');
    rerender(<BotBadge status={status({ connected: false, botState: 'offline' })} />);
    expect(screen.getByTestId('bot-badge').textContent).toBe('Offline');
    const since = new Date(Date.now() - 12_000).toISOString();
    rerender(
      <BotBadge status={status({ connected: false, botState: 'reconnecting', botStateSince: since })} />,
    );
    expect(screen.getByTestId('bot-badge').textContent).toBe('Reconnecting · 12 s');
    rerender(<BotBadge status={status({ state: 'paused', isPaused: true, isPlaying: false })} />);
    expect(screen.getByTestId('bot-badge').textContent).toBe('Online · Paused');
    rerender(<BotBadge status={status()} />);
    expect(screen.getByTestId('bot-badge').textContent).toBe('Online · 2 listeners');
    rerender(<BotBadge status={status({ listeners: 1 })} />);
    expect(screen.getByTestId('bot-badge').textContent).toBe('Online · 1 listener');
    rerender(<BotBadge status={status({ idle: true })} />);
    expect(screen.getByTestId('bot-badge').textContent).toBe('Online · Idle');
    rerender(<BotBadge status={status({ voiceChannel: null, listeners: 0 })} />);
    expect(screen.getByTestId('bot-badge').textContent).toBe('Online · Idle');
  });
});

describe('scrubber', () => {
  it('says Seeking while dragged and sends one seek, on release, at the released position', () => {
    const onSeek = vi.fn();
    const onSeekingChange = vi.fn();
    render(
      <Scrubber
        position={10}
        duration={200}
        disabled={false}
        onSeek={onSeek}
        onSeekingChange={onSeekingChange}
        settledKey={1}
      />,
    );
    const bar = screen.getByTestId('scrubber') as HTMLInputElement;
    fireEvent.pointerDown(bar);
    expect(onSeekingChange).toHaveBeenLastCalledWith(true);
    for (const v of [40, 80, 120]) fireEvent.change(bar, { target: { value: String(v) } });
    expect(onSeek).not.toHaveBeenCalled();
    expect(screen.getByTestId('elapsed').textContent).toBe('2:00');
    fireEvent.pointerUp(window);
    expect(onSeek).toHaveBeenCalledTimes(1);
    expect(onSeek).toHaveBeenCalledWith(120);
    expect(onSeekingChange).toHaveBeenLastCalledWith(false);
  });

  it('with the keyboard, seeks on key up', () => {
    const onSeek = vi.fn();
    render(
      <Scrubber
        position={10}
        duration={200}
        disabled={false}
        onSeek={onSeek}
        onSeekingChange={() => {}}
        settledKey={1}
      />,
    );
    const bar = screen.getByTestId('scrubber');
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.change(bar, { target: { value: '11' } });
    fireEvent.keyUp(bar, { key: 'ArrowRight' });
    expect(onSeek).toHaveBeenCalledExactlyOnceWith(11);
  });

  it('is disabled when nothing plays', () => {
    render(
      <Scrubber
        position={0}
        duration={0}
        disabled
        onSeek={() => {}}
        onSeekingChange={() => {}}
        settledKey={1}
      />,
    );
    expect((screen.getByTestId('scrubber') as HTMLInputElement).disabled).toBe(true);
  });
});

describe('audio effects panel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the equalizer once, 300 ms after the last change, with whole dB values', () => {
    const onEqualizer = vi.fn();
    render(
      <EffectsPanel status={status()} disabled={false} onEffects={() => {}} onEqualizer={onEqualizer} />,
    );
    const bass = screen.getByTestId('eq-bass');
    for (const v of ['2', '4', '6']) {
      fireEvent.change(bass, { target: { value: v } });
      act(() => vi.advanceTimersByTime(100));
    }
    expect(screen.getByTestId('eq-value-bass').textContent).toBe('+6 dB');
    act(() => vi.advanceTimersByTime(MUSIC_EQ_DEBOUNCE_MS - 101));
    expect(onEqualizer).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onEqualizer).toHaveBeenCalledExactlyOnceWith({ ...FLAT_EQ, bass: 6 });
  });

  it('toggles an effect by sending the whole list of effects that should be on', () => {
    const onEffects = vi.fn();
    render(
      <EffectsPanel
        status={status({ activeEffects: ['echo'] })}
        disabled={false}
        onEffects={onEffects}
        onEqualizer={() => {}}
      />,
    );
    expect(screen.getByTestId('effect-echo').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByTestId('effect-nightcore'));
    expect(onEffects).toHaveBeenCalledWith(['nightcore', 'echo']);
    fireEvent.click(screen.getByTestId('effect-echo'));
    expect(onEffects).toHaveBeenLastCalledWith([]);
  });

  it('disables effects and equalizer when nothing plays', () => {
    render(
      <EffectsPanel
        status={status({ currentSong: null })}
        disabled
        onEffects={() => {}}
        onEqualizer={() => {}}
      />,
    );
    expect((screen.getByTestId('effect-nightcore') as HTMLButtonElement).disabled).toBe(true);
    for (const b of EQ_BANDS)
      expect((screen.getByTestId(`eq-${b.key}`) as HTMLInputElement).disabled).toBe(true);
  });
});

describe('current session', () => {
  it('while the first song plays, recent history says there is no earlier song, not that nothing played', () => {
    const { rerender } = render(<SessionPanel status={status()} />);
    expect(screen.getByTestId('history-empty').textContent).toBe('No earlier songs this session.');
    rerender(<SessionPanel status={status({ currentSong: null })} />);
    expect(screen.getByTestId('history-empty').textContent).toBe('Nothing played yet.');
    rerender(<SessionPanel status={status({ history: [{ ...song, entryId: 'e0', title: 'Before' }] })} />);
    expect(screen.getByTestId('history').textContent).toBe('Before');
  });
});

describe('nothing playing', () => {
  const ended = { currentSong: null, state: 'stopped' as const, isPlaying: false };
  it('says why autoplay added nothing when the queue ended with it on (issue 48), else that nothing plays', () => {
    const { rerender } = render(<NothingPlaying status={status(ended)} />);
    expect(screen.getByTestId('nothing-playing').textContent).toBe(
      'Nothing is playing. Search for a song or start a playlist.',
    );
    rerender(
      <NothingPlaying
        status={status({
          ...ended,
          autoplayMiss: { afterTitle: 'Lonely Seed', source: 'YouTube', reason: 'unavailable' },
        })}
      />,
    );
    expect(screen.getByTestId('nothing-playing').textContent).toBe(
      'The queue ended: autoplay could not reach YouTube for a song related to “Lonely Seed”. Search for a song or start a playlist.',
    );
    rerender(<NothingPlaying status={status({ ...ended, connected: false, botState: 'offline' })} />);
    expect(screen.getByText('The music bot is offline.')).toBeTruthy();
  });
});
