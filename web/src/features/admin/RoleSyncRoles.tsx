import { ACCESS_LEVELS, LEVEL_LABELS, type RoleLevel } from '@guildhall/common';
import { cn } from '../../ui/cn.ts';
import { RoleDot } from '../../ui/RoleDot.tsx';
import { inputClass } from './fields.tsx';
import { choiceOf, type RoleChoice, type RoleRow } from './role-sync.ts';

/** The server's roles, each with the level it gives, "deny", or nothing. */
export function RoleSyncRoles({
  rows,
  roleLevels,
  denyRoles,
  disabled,
  onChoose,
}: {
  rows: RoleRow[];
  roleLevels: RoleLevel[];
  denyRoles: string[];
  disabled: boolean;
  onChoose: (roleId: string, choice: RoleChoice) => void;
}) {
  if (rows.length === 0) return <p className="text-muted">The server has no roles besides @everyone.</p>;
  return (
    <ul className="divide-y divide-border/60" data-testid="role-sync-roles">
      {rows.map((role) => (
        <li key={role.id} className="flex items-center justify-between gap-3 py-2">
          <span className="flex min-w-0 items-center gap-2">
            <RoleDot color={role.color} />
            <span className="min-w-0">
              <span className="block truncate font-medium">{role.name}</span>
              {role.managed && <span className="block text-xs text-muted">Managed by an integration</span>}
              {role.isGone && (
                <span className="block text-xs text-warning-text">No longer on the server</span>
              )}
            </span>
          </span>
          {/* inputClass is w-full (cn does not merge classes): the wrapper sets the width. */}
          <span className="w-36 shrink-0 sm:w-44">
            <select
              aria-label={`Level of role ${role.name}`}
              className={cn(inputClass, 'h-9 cursor-pointer')}
              disabled={disabled}
              value={choiceOf(role.id, roleLevels, denyRoles)}
              onChange={(e) => onChoose(role.id, e.target.value as RoleChoice)}
            >
              <option value="">No level</option>
              {ACCESS_LEVELS.map((level) => (
                <option key={level} value={level}>
                  {LEVEL_LABELS[level]}
                </option>
              ))}
              <option value="deny">Deny access</option>
            </select>
          </span>
        </li>
      ))}
    </ul>
  );
}
