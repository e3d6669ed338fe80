import * as Menu from '@radix-ui/react-dropdown-menu';
import { EllipsisVertical } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../ui/cn.ts';

export type MenuAction = {
  label: string;
  icon: ReactNode;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
  hint?: string;
};

/**
 * The ⋮ menu of a card or row: shown on hover (always on touch screens). Radix's DropdownMenu gives the
 * menu pattern: focus moves into the menu, arrow keys/Home/End move between items, Escape or Tab closes
 * it and returns focus to the trigger, outside clicks close it. It loads with the files page only.
 */
export function ItemMenu({
  label,
  actions,
  className,
}: {
  label: string;
  actions: MenuAction[];
  className?: string;
}) {
  return (
    <div className={cn('relative', className)}>
      <Menu.Root modal={false}>
        <Menu.Trigger
          aria-label={`Actions for ${label}`}
          onClick={(e) => e.stopPropagation()}
          className="inline-flex size-8 items-center justify-center rounded-lg text-muted outline-none hover:bg-surface-2 hover:text-text focus-visible:ring-2 focus-visible:ring-brand data-[state=open]:bg-surface-2 data-[state=open]:text-text"
        >
          <EllipsisVertical className="size-4" aria-hidden />
        </Menu.Trigger>
        <Menu.Portal>
          <Menu.Content
            align="end"
            sideOffset={4}
            collisionPadding={8}
            onClick={(e) => e.stopPropagation()}
            className="z-50 w-48 overflow-hidden rounded-xl border border-border bg-surface py-1 shadow-2xl"
          >
            {actions.map((a) => (
              <Menu.Item
                key={a.label}
                disabled={a.disabled}
                title={a.hint}
                onSelect={() => a.onSelect()}
                className={cn(
                  'flex w-full cursor-pointer items-center gap-2.5 px-3 py-2 text-left text-sm outline-none transition-colors',
                  'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50',
                  a.danger
                    ? 'text-danger-text data-[highlighted]:bg-danger/15'
                    : 'text-text data-[highlighted]:bg-surface-2',
                )}
              >
                {a.icon}
                {a.label}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
    </div>
  );
}
