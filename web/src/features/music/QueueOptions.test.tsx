// @vitest-environment jsdom
import { MUSIC_QUEUE_TEXTS } from '@guildhall/common';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueueOptions } from './QueueOptions.tsx';

afterEach(cleanup);

describe('queue options (issue 48)', () => {
  it('a moderator switches fair queue and no duplicates', () => {
    const onChange = vi.fn();
    render(
      <QueueOptions
        options={{ fairQueue: false, noDuplicates: true, autoplay: false }}
        canChange
        canChangeMemberOptions
        onChange={onChange}
      />,
    );
    const fair = screen.getByTestId('option-fairQueue') as HTMLInputElement;
    const dupes = screen.getByTestId('option-noDuplicates') as HTMLInputElement;
    expect([fair.checked, dupes.checked]).toEqual([false, true]);
    fireEvent.click(fair);
    expect(onChange).toHaveBeenCalledWith('fairQueue', true);
    fireEvent.click(dupes);
    expect(onChange).toHaveBeenCalledWith('noDuplicates', false);
    expect(screen.queryByText(MUSIC_QUEUE_TEXTS.optionsNeedModerator)).toBeNull();
  });

  it('members switch autoplay; they see the queue rules, cannot change them, and are told who can', () => {
    const onChange = vi.fn();
    render(
      <QueueOptions
        options={{ fairQueue: true, noDuplicates: false, autoplay: false }}
        canChange={false}
        canChangeMemberOptions
        onChange={onChange}
      />,
    );
    const fair = screen.getByTestId('option-fairQueue') as HTMLInputElement;
    expect(fair.checked).toBe(true);
    expect(fair.disabled).toBe(true);
    expect(screen.getByText(MUSIC_QUEUE_TEXTS.optionsNeedModerator)).toBeTruthy();
    fireEvent.click(screen.getByTestId('option-autoplay'));
    expect(onChange).toHaveBeenCalledWith('autoplay', true);
  });
});
