import { OSINT_DATABASES, OSINT_TEXTS, OSINT_TOOLS } from '@guildhall/common';
import { Database, ShieldAlert, Wrench } from 'lucide-react';
import { Badge } from '../../ui/Badge.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';

/** §2: the static list of tools (Active / Coming Soon) and the databases the screen draws on. */
export function ToolsCard() {
  return (
    <Card data-testid="osint-tools">
      <CardTitle icon={<Wrench className="size-4" />}>Tools</CardTitle>
      <ul className="space-y-2 text-sm">
        {OSINT_TOOLS.active.map((t) => (
          <li key={t} className="flex items-center justify-between gap-2">
            {t} <Badge tone="success">Active</Badge>
          </li>
        ))}
        {OSINT_TOOLS.comingSoon.map((t) => (
          <li key={t} className="flex items-center justify-between gap-2 text-muted">
            {t} <Badge tone="warning">Coming Soon</Badge>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function DatabasesCard() {
  return (
    <Card data-testid="osint-databases">
      <CardTitle icon={<Database className="size-4" />}>Databases</CardTitle>
      <ul className="space-y-2 text-sm">
        {OSINT_DATABASES.map((d) => (
          <li key={d.kind}>
            <span className="font-medium">{d.kind}</span>
            <span className="block text-muted">{d.name}</span>
          </li>
        ))}
        <li className="pt-1 text-xs text-muted">
          <a href="https://db-ip.com" target="_blank" rel="noopener noreferrer" className="hover:underline">
            IP Geolocation by DB-IP
          </a>
        </li>
      </ul>
    </Card>
  );
}

export function Disclaimer() {
  return (
    <div
      role="note"
      data-testid="osint-disclaimer"
      className="flex gap-3 rounded-2xl border border-warning/30 bg-warning/10 px-4 py-3 text-sm text-warning-text"
    >
      <ShieldAlert className="mt-0.5 size-4 shrink-0" />
      <p>{OSINT_TEXTS.disclaimer}</p>
    </div>
  );
}
