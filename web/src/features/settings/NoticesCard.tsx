import { NOTICE_TEXTS, NoticeSettingsResponse } from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { apiFetch } from '../../api/client.ts';
import { Card, CardTitle } from '../../ui/Card.tsx';

const KEY = ['notice-settings'];

/** Notices (issue 45): whether they also come as a Discord DM from the portal's bot. */
export function NoticesCard() {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: KEY,
    queryFn: async () => NoticeSettingsResponse.parse(await apiFetch('/api/notices/settings')).data,
  });
  const save = useMutation({
    mutationFn: async (discordDm: boolean) =>
      NoticeSettingsResponse.parse(
        await apiFetch('/api/notices/settings', { method: 'PUT', body: { discordDm } }),
      ).data,
    onSuccess: (data) => queryClient.setQueryData(KEY, data),
    onError: (e) => toast.error(e instanceof Error ? e.message : String(e)),
  });
  const data = settings.data;
  return (
    <Card className="mt-6">
      <CardTitle
        icon={<Bell className="size-4" />}
        action={
          <Link to="/notices" className="text-sm text-brand-text hover:underline">
            Open notices
          </Link>
        }
      >
        {NOTICE_TEXTS.title}
      </CardTitle>
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-brand"
          checked={data?.discordDm ?? false}
          disabled={!data || save.isPending}
          onChange={(e) => save.mutate(e.target.checked)}
          data-testid="notices-dm"
        />
        <span>
          <span className="block font-medium">{NOTICE_TEXTS.dmLabel}</span>
          <span className="block text-muted">
            {data && !data.botAvailable ? NOTICE_TEXTS.dmUnavailable : NOTICE_TEXTS.dmHelp}
          </span>
        </span>
      </label>
      <p className="mt-3 text-xs text-muted">{NOTICE_TEXTS.kept}</p>
    </Card>
  );
}
