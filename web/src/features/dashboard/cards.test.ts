import { describe, expect, it } from 'vitest';
import { dashboardCards, gridColumns } from './cards.ts';

describe('dashboard cards', () => {
  it('shows the Admin Panel card to admins only', () => {
    expect(dashboardCards(true).map((c) => c.title)).toContain('Admin Panel');
    expect(dashboardCards(false).map((c) => c.title)).not.toContain('Admin Panel');
  });
  it('lists the spec cards in order; InfoSec is live now that the tool works (docs/spec-deviations.md)', () => {
    const cards = dashboardCards(false);
    expect(cards.map((c) => c.to)).toEqual(['/settings', '/filesystem', '/music', '/infosec', '/minigames']);
    expect(cards.find((c) => c.key === 'infosec')?.comingSoon).toBeUndefined();
  });
  it('uses 2 columns up to 4 cards, else 3', () => {
    expect(gridColumns(4)).toBe(2);
    expect(gridColumns(5)).toBe(3);
    expect(gridColumns(6)).toBe(3);
  });
});
