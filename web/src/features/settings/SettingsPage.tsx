import { avatarUrl, memberName, snowflakeDate, TEXTS, userTag } from '@guildhall/common';
import { Image, Lock, LogOut, UserRound } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../../auth/useAuth.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { BackLink } from '../../ui/BackLink.tsx';
import { Badge } from '../../ui/Badge.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { LevelBadge } from '../../ui/LevelBadge.tsx';
import { Page } from '../../ui/Page.tsx';
import { ApiTokensCard } from './ApiTokensCard.tsx';
import { Field } from './Field.tsx';
import { NoticesCard } from './NoticesCard.tsx';
import { RoleSource } from './RoleSource.tsx';
import { ThemeCard } from './ThemeCard.tsx';
import { useMyRoleSync } from './useMyRoleSync.ts';

export function SettingsPage() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const fromServer = useMyRoleSync(user?.provider === 'discord').data;

  if (!user) {
    return (
      <Page className="flex justify-center">
        <Card className="w-full max-w-md text-center">
          <h1 className="mb-2 text-xl font-semibold">{TEXTS.noUserData}</h1>
          <Link to="/login" className={buttonClass('primary', 'md', 'mt-4')}>
            Go to Login
          </Link>
        </Card>
      </Page>
    );
  }

  const isDiscord = user.provider === 'discord';
  const tag = userTag(user.username, user.discriminator);
  const avatar = avatarUrl({ id: user.id, avatar: user.avatar, discriminator: user.discriminator });
  const avatarKind = !isDiscord ? 'Generic Avatar' : user.avatar ? 'Custom' : 'Default';
  const created = isDiscord ? snowflakeDate(user.id) : null;
  const hasDiscriminator = !!user.discriminator && Number(user.discriminator) !== 0;
  // The community server's nickname and avatar, where the member has one there (issue 43).
  const server = fromServer?.server;
  const shownName = server?.nick ?? memberName(user);
  const shownAvatar = server?.avatarUrl ?? avatar;

  return (
    <Page>
      <div className="mb-6 flex items-center justify-between gap-3">
        <BackLink to="/dashboard">Back to Dashboard</BackLink>
        <Button
          variant="danger"
          size="sm"
          icon={<LogOut className="size-4" />}
          onClick={async () => {
            await logout();
            navigate('/login');
          }}
        >
          Logout
        </Button>
      </div>

      <Card className="mb-6 flex flex-col items-center gap-5 text-center sm:flex-row sm:text-left">
        <Avatar src={shownAvatar} name={shownName} className="size-20 border-2 border-brand/50 text-2xl" />
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-2xl font-bold">{shownName}</h1>
          <p className="text-muted">{tag}</p>
          <p className="mt-1 text-sm text-muted">{user.email ?? 'No email on file'}</p>
          <div className="mt-3 flex flex-wrap justify-center gap-2 sm:justify-start">
            <Badge tone="neutral">{isDiscord ? 'Discord' : 'Access code'}</Badge>
            <Badge tone={isDiscord ? 'brand' : 'warning'}>
              {isDiscord ? 'Discord Connected' : 'Access Code Login'}
            </Badge>
            <LevelBadge level={user.accessLevel} />
          </div>
          {isDiscord && <RoleSource role={fromServer?.source ?? null} />}
        </div>
        <div className="text-sm text-muted sm:text-right">
          <div className="text-xs uppercase tracking-wide">Account created</div>
          <div className="font-medium text-text">
            {created ? created.toLocaleDateString(undefined, { dateStyle: 'long' }) : 'N/A'}
          </div>
        </div>
      </Card>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card>
          <CardTitle icon={<UserRound className="size-4" />}>Account Details</CardTitle>
          <dl>
            <Field
              label="User ID"
              value={<span className="font-mono text-sm">{user.id}</span>}
              copy={user.id}
            />
            <Field label="Username" value={user.username} />
            {hasDiscriminator && <Field label="Discriminator" value={`#${user.discriminator}`} />}
          </dl>
        </Card>
        <Card>
          <CardTitle icon={<Lock className="size-4" />}>Privacy & Security</CardTitle>
          <dl>
            <Field label="Provider" value={isDiscord ? 'Discord' : 'Access Code'} />
            <Field label="Email" value={user.email ?? 'Not provided'} copy={user.email} />
            <Field label="Session Status" value={<Badge tone="success">Active</Badge>} />
          </dl>
        </Card>
        <Card>
          <CardTitle icon={<Image className="size-4" />}>Avatar & Display</CardTitle>
          <div className="mb-2 flex items-center gap-3">
            <Avatar src={avatar} name={user.username} className="size-14 text-lg" />
            <span className="text-sm text-muted" data-testid="avatar-caption">
              {avatarKind}
            </span>
          </div>
          <dl>
            <Field label="Display Name" value={user.globalName ?? user.username} />
            {server?.nick && (
              <Field label={`Nickname in ${server.guildName ?? 'the server'}`} value={server.nick} />
            )}
            {server?.avatarUrl && (
              <Field
                label="Server Avatar URL"
                value={<span className="font-mono text-xs">{server.avatarUrl}</span>}
                copy={server.avatarUrl}
              />
            )}
            <Field label="Full Tag" value={tag} copy={tag} />
            <Field
              label="Avatar URL"
              value={<span className="font-mono text-xs">{avatar}</span>}
              copy={avatar}
            />
          </dl>
        </Card>
      </div>
      <ThemeCard />
      <NoticesCard />
      <ApiTokensCard />
    </Page>
  );
}
