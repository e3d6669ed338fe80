import { Monitor, Moon, Palette, Sun } from 'lucide-react';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { cn } from '../../ui/cn.ts';
import { type ThemeChoice, useTheme } from '../../ui/theme.ts';

const OPTIONS = [
  { value: 'system', label: 'System', icon: Monitor },
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
] as const satisfies readonly { value: ThemeChoice; label: string; icon: unknown }[];

/** Appearance: light, dark, or follow the system setting (the default); saved in this browser. */
export function ThemeCard() {
  const [choice, setChoice] = useTheme();
  return (
    <Card className="mt-6">
      <CardTitle icon={<Palette className="size-4" />}>Appearance</CardTitle>
      <fieldset>
        <legend className="mb-3 text-sm text-muted">Theme</legend>
        <div className="grid grid-cols-3 gap-2 sm:max-w-md">
          {OPTIONS.map(({ value, label, icon: Icon }) => (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer items-center justify-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand',
                choice === value
                  ? 'border-brand bg-brand/10 text-text'
                  : 'border-border text-muted hover:text-text',
              )}
            >
              <input
                type="radio"
                name="theme"
                value={value}
                checked={choice === value}
                onChange={() => setChoice(value)}
                className="sr-only"
              />
              <Icon className="size-4 shrink-0" aria-hidden />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
    </Card>
  );
}
