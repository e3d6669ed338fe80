import type { Config } from './config.ts';
import type { AccessCodeSource } from './features/auth/index.ts';

/** What the start-up banner says; everything it needs comes from the start-up itself. */
export type BannerFacts = {
  url: string;
  accessCode: string;
  /** Where the generated/saved code lives, when it came from a file. */
  accessCodeFile?: string;
  setupMode: boolean;
  oauthConfigured: boolean;
};

/** The URL people open: PUBLIC_URL when set, else the listen address (a wildcard host means this machine). */
export function listenUrl(host: string, port: number, publicUrl?: string): string {
  if (publicUrl) return publicUrl;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/**
 * A readable block for a person at a terminal, printed above the JSON logs (which stay the machine
 * format). It names the URL, the access code, setup mode and the next step to take.
 */
export function startupBanner(f: BannerFacts): string {
  const lines = [
    'Guildhall is starting',
    '',
    `  Open:         ${f.url}`,
    `  Access code:  ${f.accessCode}${f.accessCodeFile ? `  (saved in ${f.accessCodeFile})` : ''}`,
    `  Discord:      ${f.oauthConfigured ? 'sign-in configured' : 'sign-in NOT configured (set DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET, DISCORD_REDIRECT_URI)'}`,
    `  Setup mode:   ${f.setupMode ? 'ON (no admin exists; the access-code identity acts as Admin)' : 'off'}`,
    '',
    `  Next step:    ${nextStep(f)}`,
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  const rule = `+${'-'.repeat(width)}+`;
  return [rule, ...lines.map((l) => `| ${l.padEnd(width - 1)}|`), rule, ''].join('\n');
}

function nextStep(f: BannerFacts): string {
  if (f.setupMode && !f.oauthConfigured) {
    // Adding an admin now would end setup mode with no way for that admin to sign in.
    return 'configure Discord sign-in first; then sign in with Discord and make yourself Admin (README, "Set up")';
  }
  if (f.setupMode) {
    return 'sign in with the access code, open the Admin Panel and add your Discord id as Admin (or set ADMIN_DISCORD_IDS)';
  }
  if (!f.oauthConfigured) return 'configure Discord sign-in so members can sign in with their accounts';
  return 'share the URL with your members; approve newcomers in the Admin Panel';
}

/** The log line saying where the access code in force came from. */
export function accessCodeOriginMessage(access: Pick<AccessCodeSource, 'origin' | 'file'>): string {
  switch (access.origin) {
    case 'env':
      return 'Using the access code from the ACCESS_CODE variable';
    case 'database':
      return `Using the access code stored in the database${access.file ? ` (a copy is in ${access.file})` : ''}`;
    case 'file':
      return `Using the access code saved in ${access.file} (now also stored in the database)`;
    case 'generated':
      return `ACCESS_CODE is not set: generated one, stored it in the database and saved it in ${access.file}`;
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Configuration that works but is risky; each is logged as a warning at start-up. */
export function startupWarnings(config: Pick<Config, 'trustProxy' | 'host'>): string[] {
  const warnings: string[] = [];
  if (config.trustProxy !== false && !isLoopbackHost(config.host)) {
    warnings.push(
      `TRUST_PROXY is set but the portal listens on ${config.host}, not only on loopback: a client that reaches ` +
        'it directly can write its own X-Forwarded-For and escape the per-address limits (sign-in included). ' +
        'Set HOST=127.0.0.1 (the proxy on the same machine), or let only the proxy reach the port (in a container: publish it on 127.0.0.1, as compose.yaml does).',
    );
  }
  return warnings;
}
