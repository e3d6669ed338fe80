import { NOTICE_TEXTS, NoticeSettingsResponse } from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { useState } from 'react';
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
    onSuccess: (data) => {
      queryClient.setQueryData(KEY, data);
      setChosen(null);
    },
    onError: (e) => {
      setChosen(null); // back to what the server has
      toast.error(e instanceof Error ? e.message : String(e));
    },
  });
  // The box follows the click at once (a controlled box would otherwise spring back until the answer).
  const [chosen, setChosen] = useState<boolean | null>(null);
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
          checked={chosen ?? data?.discordDm ?? false}
          disabled={!data}
          onChange={(e) => {
            setChosen(e.target.checked);
            save.mutate(e.target.checked);
          }}
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
