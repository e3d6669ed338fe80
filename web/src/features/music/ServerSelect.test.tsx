// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServerSelect } from './ServerSelect.tsx';

afterEach(cleanup);

const guild = (id: string, name: string) => ({ id, name, memberCount: 5 });

describe('server selector', () => {
  it('is not shown with one server (or none)', () => {
    const { container, rerender } = render(
      <ServerSelect guilds={[guild('1', 'Only')]} value="1" onChange={() => {}} />,
    );
    expect(container.innerHTML).toBe('');
    rerender(<ServerSelect guilds={[]} value={null} onChange={() => {}} />);
    expect(container.innerHTML).toBe('');
  });

  it('is shown with more than one server and reports the choice', () => {
    const onChange = vi.fn();
    render(<ServerSelect guilds={[guild('1', 'One'), guild('2', 'Two')]} value="1" onChange={onChange} />);
    const select = screen.getByTestId('server-select') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['One (5 members)', 'Two (5 members)']);
    fireEvent.change(select, { target: { value: '2' } });
    expect(onChange).toHaveBeenCalledWith('2');
  });
});
