import { useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'theme';
const media = () => window.matchMedia('(prefers-color-scheme: light)');

export function readThemeChoice(): ThemeChoice {
  const v = localStorage.getItem(KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
}

/** Applies a choice to <html data-theme> (the same rule as public/theme-init.js). */
export function applyTheme(choice: ThemeChoice): void {
  const light = choice === 'light' || (choice === 'system' && media().matches);
  document.documentElement.dataset.theme = light ? 'light' : 'dark';
}

/** Mounted once (the layout): with the "system" choice, the theme follows the OS setting as it changes. */
export function useFollowSystemTheme(): void {
  useEffect(() => {
    const m = media();
    const follow = () => applyTheme(readThemeChoice());
    m.addEventListener('change', follow);
    return () => m.removeEventListener('change', follow);
  }, []);
}

/** The theme choice, saved in this browser. */
export function useTheme(): [ThemeChoice, (c: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(readThemeChoice);
  useEffect(() => applyTheme(choice), [choice]);
  return [
    choice,
    (c) => {
      if (c === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, c);
      setChoice(c);
    },
  ];
}
