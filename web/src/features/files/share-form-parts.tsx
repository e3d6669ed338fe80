import type { ReactNode } from 'react';
import { cn } from '../../ui/cn.ts';

/** "YYYY-MM-DDTHH:mm" in local time, the format of datetime-local inputs. */
export function localInputValue(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** One choice of who can open a link (Users / Public), as a card-like radio. */
export function LevelOption(props: {
  name: string;
  checked: boolean;
  onSelect: () => void;
  icon: ReactNode;
  title: string;
  hint: string;
  value: string;
}) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-xl border p-3 transition-colors',
        props.checked ? 'border-brand bg-brand/10' : 'border-border hover:border-muted/60',
      )}
    >
      <input
        type="radio"
        name={props.name}
        value={props.value}
        checked={props.checked}
        onChange={props.onSelect}
        className="mt-1 accent-[#5865f2]"
      />
      <span>
        <span className="flex items-center gap-1.5 text-sm font-medium">
          {props.icon}
          {props.title}
        </span>
        <span className="block text-xs text-muted">{props.hint}</span>
      </span>
    </label>
  );
}
