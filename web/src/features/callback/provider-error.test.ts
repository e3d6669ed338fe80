import { describe, expect, it } from 'vitest';
import { providerErrorMessage } from './provider-error.ts';

describe('providerErrorMessage', () => {
  it('tells a member who cancelled on Discord what happened, in the spec form', () => {
    const text = providerErrorMessage('access_denied');
    expect(text.startsWith('Authentication failed: ')).toBe(true);
    expect(text).toContain('you cancelled the sign-in on Discord');
    expect(text).not.toContain('access_denied');
  });

  it('quotes an unknown code, cut short, and never reads a prototype key as a meaning', () => {
    expect(providerErrorMessage('weird_error')).toBe(
      'Authentication failed: Discord reported “weird_error”. Try again.',
    );
    expect(providerErrorMessage('constructor')).toContain('“constructor”');
    expect(providerErrorMessage('x'.repeat(500)).length).toBeLessThan(140);
  });
});
