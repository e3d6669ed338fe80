import { Resolver } from 'node:dns/promises';

/**
 * One DNS resolver for everything the server looks up on a user's behalf. With servers configured
 * (`ip` or `ip:port`, DNS_SERVERS) it asks them; otherwise the system's. Lookups time out quickly.
 */
export type DnsResolver = Pick<
  Resolver,
  'resolve4' | 'resolve6' | 'resolveMx' | 'resolveNs' | 'resolveTxt' | 'reverse' | 'resolveCname'
>;

export function createResolver(servers: readonly string[], timeoutMs = 3000): DnsResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return resolver;
}

/** A name's A and AAAA addresses; a name with neither resolves to []. */
export async function resolveAddresses(resolver: DnsResolver, hostname: string): Promise<string[]> {
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
  const out: string[] = [];
  if (v4.status === 'fulfilled') out.push(...v4.value);
  if (v6.status === 'fulfilled') out.push(...v6.value);
  if (out.length === 0) {
    const reason = v4.status === 'rejected' ? v4.reason : null;
    if (
      reason &&
      (reason as { code?: string }).code !== 'ENODATA' &&
      (reason as { code?: string }).code !== 'ENOTFOUND'
    ) {
      throw reason;
    }
  }
  return out;
}
