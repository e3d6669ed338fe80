import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The focus ring of issue 31, read from the stylesheet itself: 2 px, unlayered (so no utility can
// remove it), and at least 3:1 (WCAG 1.4.11) against every background and border of both themes.
const css = fs.readFileSync(path.join(import.meta.dirname, 'index.css'), 'utf8');

function block(selector: RegExp): string {
  const m = selector.exec(css);
  if (!m) throw new Error(`no block ${selector}`);
  return css.slice(m.index, css.indexOf('}', m.index));
}
const token = (text: string, name: string) => {
  const m = new RegExp(`--color-${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(text);
  if (!m?.[1]) throw new Error(`--color-${name} missing`);
  return m[1];
};
const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

describe('focus ring', () => {
  it('is a 2 px outline in the focus colour, outside any @layer', () => {
    const rule = /^:focus-visible\s*\{([^}]*)\}/m.exec(css);
    expect(rule?.[1]).toMatch(/outline:\s*2px solid var\(--color-focus\)/);
    // Unlayered: the rule sits after the last @layer block closes, at the top level.
    const before = css.slice(0, rule?.index);
    const opens = (before.match(/\{/g) ?? []).length;
    const closes = (before.match(/\}/g) ?? []).length;
    expect(opens).toBe(closes);
  });

  it.each([
    ['dark', block(/@theme\s*\{/)],
    ['light', block(/:root\[data-theme="light"\]\s*\{/)],
  ])('has AA contrast (≥ 3:1) against every surface of the %s theme', (_theme, text) => {
    const focus = token(text, 'focus');
    for (const surface of ['bg', 'surface', 'surface-2', 'border']) {
      expect(contrast(focus, token(text, surface)), surface).toBeGreaterThanOrEqual(3);
    }
  });
});
