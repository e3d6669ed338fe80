import { MyRoleSourceResponse } from '@guildhall/common';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../api/client.ts';

/**
 * What the community server says of the signed-in member (issue 43): the role that gave their level and
 * their server nickname and avatar. One query, shared by the page's header and its role line.
 */
export function useMyRoleSync(isEnabled: boolean) {
  return useQuery({
    queryKey: ['role-sync', 'me'],
    queryFn: async () => MyRoleSourceResponse.parse(await apiFetch('/api/role-sync/me')).data,
    enabled: isEnabled,
  });
}
