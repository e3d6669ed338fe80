import { NOTICE_TEXTS, type Notice } from '@guildhall/common';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, CheckCheck, Download, Inbox } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { NOTICES_CHANGED_EVENT } from '../../layout/useUnreadNotices.ts';
import { BackLink } from '../../ui/BackLink.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { cn } from '../../ui/cn.ts';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { fetchNotices, markRead } from './api.ts';

const KEY = ['notices'];

/** /notices (issue 45): what the member was told about their shares and upload links, newest first. */
export function NoticesPage() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: fetchNotices });
  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey: KEY });
    window.dispatchEvent(new Event(NOTICES_CHANGED_EVENT));
  };
  const read = async (ids?: string[]) => {
    try {
      await markRead(ids);
      await changed();
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e));
    }
  };
  const unread = list.data?.unread ?? 0;

  return (
    <Page className="max-w-2xl">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <Card className="mt-4">
        <CardTitle
          icon={<Bell className="size-4" />}
          action={
            unread > 0 ? (
              <Button
                size="sm"
                variant="secondary"
                icon={<CheckCheck className="size-4" />}
                onClick={() => read()}
              >
                {NOTICE_TEXTS.markAllRead}
              </Button>
            ) : undefined
          }
        >
          {NOTICE_TEXTS.title}
        </CardTitle>
        <p className="-mt-2 mb-4 text-sm text-muted" data-testid="notices-unread">
          {NOTICE_TEXTS.unread(unread)} · {NOTICE_TEXTS.kept}
        </p>
        {list.isPending ? (
          <Spinner className="size-6" />
        ) : list.isError ? (
          <p role="alert" className="text-sm text-danger-text">
            {list.error.message}
          </p>
        ) : list.data.notices.length === 0 ? (
          <p className="text-sm text-muted">{NOTICE_TEXTS.empty}</p>
        ) : (
          <ul className="space-y-2" data-testid="notices-list">
            {list.data.notices.map((n) => (
              <NoticeRow key={n.id} notice={n} onRead={() => read([n.id])} />
            ))}
          </ul>
        )}
      </Card>
    </Page>
  );
}

function NoticeRow({ notice, onRead }: { notice: Notice; onRead: () => void }) {
  const isUnread = notice.readAt === null;
  const Icon = notice.kind === 'request_upload' ? Inbox : Download;
  return (
    <li
      data-testid="notice"
      data-unread={isUnread}
      className={cn(
        'flex items-start gap-3 rounded-xl border px-3 py-2.5 text-sm',
        isUnread ? 'border-brand/40 bg-brand/10' : 'border-border bg-bg/40',
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0 text-brand" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="[overflow-wrap:anywhere]">
          {isUnread && <span className="sr-only">Unread: </span>}
          {notice.text}
        </p>
        <p className="mt-0.5 text-xs text-muted">{new Date(notice.createdAt).toLocaleString()}</p>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        {notice.link && (
          <Link
            to={notice.link}
            onClick={isUnread ? onRead : undefined}
            className="text-xs font-medium text-brand-text hover:underline"
          >
            Open
          </Link>
        )}
        {isUnread && (
          <button type="button" onClick={onRead} className="text-xs text-muted hover:text-text">
            Mark read
          </button>
        )}
      </div>
    </li>
  );
}
