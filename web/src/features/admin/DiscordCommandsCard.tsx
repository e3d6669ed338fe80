import { DISCORD_COMMAND_HELP } from '@guildhall/common';
import { Terminal } from 'lucide-react';
import { Badge } from '../../ui/Badge.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';

const ACCESS_LABELS = { anyone: 'Anyone', member: 'Any approved member', user: 'User or higher' } as const;

/** What each slash command does in Discord and who may use it (issue 44), as the bot registers them. */
export function DiscordCommandsCard() {
  return (
    <Card className="mb-6" data-testid="discord-commands">
      <CardTitle icon={<Terminal className="size-4" />}>Commands in Discord</CardTitle>
      <p className="mb-4 text-sm text-muted">
        The bot registers these on the community's server each time it starts. Each one acts as the member who
        uses it, with their level, as the portal would.
      </p>
      <dl className="divide-y divide-border text-sm">
        {DISCORD_COMMAND_HELP.map((c) => (
          <div key={c.name} className="grid gap-1 py-2.5 sm:grid-cols-[13rem_1fr] sm:gap-4">
            <dt className="flex flex-wrap items-center gap-2 sm:block">
              <code className="font-mono font-medium text-text">{c.usage}</code>
              <Badge className="sm:mt-1 sm:flex sm:w-fit">{ACCESS_LABELS[c.access]}</Badge>
            </dt>
            <dd className="text-muted">{c.does}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
