import type { MyRoleSourceResponse } from '@guildhall/common';
import { RoleDot } from '../../ui/RoleDot.tsx';

/** "Level from the Discord role …": which role of the community server gave the member their level (issue 43). */
export function RoleSource({ role }: { role: MyRoleSourceResponse['data']['source'] }) {
  if (!role) return null;
  return (
    <p
      className="mt-2 flex flex-wrap items-center justify-center gap-x-1.5 text-sm text-muted sm:justify-start"
      data-testid="role-source"
    >
      Level from the Discord role{' '}
      <span className="inline-flex items-center gap-1.5 font-medium text-text">
        <RoleDot color={role.roleColor} />
        {role.roleName}
      </span>
    </p>
  );
}
