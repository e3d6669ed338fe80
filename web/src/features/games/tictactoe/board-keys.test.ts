import { describe, expect, it } from 'vitest';
import { neighbourCell } from './Board.tsx';

describe('board arrow keys (issue 17)', () => {
  it('move one cell and stop at the edges', () => {
    expect(neighbourCell(4, 'ArrowUp')).toBe(1);
    expect(neighbourCell(4, 'ArrowDown')).toBe(7);
    expect(neighbourCell(4, 'ArrowLeft')).toBe(3);
    expect(neighbourCell(4, 'ArrowRight')).toBe(5);
    expect(neighbourCell(0, 'ArrowUp')).toBe(0);
    expect(neighbourCell(2, 'ArrowRight')).toBe(2);
    expect(neighbourCell(6, 'ArrowLeft')).toBe(6);
    expect(neighbourCell(8, 'ArrowDown')).toBe(8);
    expect(neighbourCell(5, 'Home')).toBe(3);
    expect(neighbourCell(3, 'End')).toBe(5);
    expect(neighbourCell(4, 'Enter')).toBeNull();
  });
});
