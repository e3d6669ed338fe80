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
  if (f.setupMode) {
    return 'sign in with the access code, open the Admin Panel and add your Discord id as Admin (or set ADMIN_DISCORD_IDS)';
  }
  if (!f.oauthConfigured) return 'configure Discord sign-in so members can sign in with their accounts';
  return 'share the URL with your members; approve newcomers in the Admin Panel';
}
