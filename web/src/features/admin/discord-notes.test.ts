import { DISCORD_NOTES_DEFAULTS } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { channelChoices, isChanged, isOn } from './discord-notes.ts';

const channels = [
  { id: '400000000000000030', name: 'general', position: 0 },
  { id: '400000000000000031', name: 'portal-notes', position: 1 },
];

describe('the Channel notes card', () => {
  it('is On only with a channel and at least one event', () => {
    expect(isOn(DISCORD_NOTES_DEFAULTS)).toBe(false);
    expect(isOn({ channelId: '400000000000000030', events: DISCORD_NOTES_DEFAULTS.events })).toBe(false);
    expect(isOn({ channelId: null, events: { share: true, lobby: false, song: false } })).toBe(false);
    expect(
      isOn({ channelId: '400000000000000030', events: { share: false, lobby: false, song: true } }),
    ).toBe(true);
  });

  it('counts the form changed when the channel or any switch differs from what is saved', () => {
    const saved = { channelId: '400000000000000030', events: { share: true, lobby: false, song: false } };
    expect(isChanged(structuredClone(saved), saved)).toBe(false);
    expect(isChanged({ ...saved, channelId: null }, saved)).toBe(true);
    expect(isChanged({ ...saved, events: { ...saved.events, song: true } }, saved)).toBe(true);
  });

  it('offers the text channels by name, and keeps a saved channel the bot no longer sees', () => {
    expect(channelChoices(channels, null)).toEqual([
      { id: '400000000000000030', label: '#general' },
      { id: '400000000000000031', label: '#portal-notes' },
    ]);
    expect(channelChoices(channels, '400000000000000099').at(-1)).toEqual({
      id: '400000000000000099',
      label: 'id 400000000000000099 (not visible to the bot)',
    });
  });
});
