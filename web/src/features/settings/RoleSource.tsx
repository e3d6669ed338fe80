import { MyRoleSourceResponse, roleColorHex } from '@guildhall/common';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../api/client.ts';

/** "Level from the Discord role …": which role of the community server gave the member their level (issue 43). */
export function RoleSource() {
  const source = useQuery({
    queryKey: ['role-sync', 'me'],
    queryFn: async () => MyRoleSourceResponse.parse(await apiFetch('/api/role-sync/me')).data,
  });
  const role = source.data;
  if (!role) return null;
  return (
    <p className="mt-2 text-sm text-muted" data-testid="role-source">
      Level from the Discord role{' '}
      <span className="font-medium" style={{ color: roleColorHex(role.roleColor) ?? undefined }}>
        {role.roleName}
      </span>
    </p>
  );
}
