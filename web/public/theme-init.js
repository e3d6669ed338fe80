// Runs before the first paint (a plain script, allowed by the CSP as 'self'): applies the saved theme
// choice, or the system setting when the choice is "system" or unset. Kept in sync by web/src/ui/theme.ts.
(() => {
  let choice = 'system';
  try {
    choice = localStorage.getItem('theme') || 'system';
  } catch {}
  const light =
    choice === 'light' || (choice === 'system' && matchMedia('(prefers-color-scheme: light)').matches);
  document.documentElement.dataset.theme = light ? 'light' : 'dark';
})();
