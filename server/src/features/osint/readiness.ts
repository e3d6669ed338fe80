import { createResolver } from '../../platform/outbound/resolver.ts';

/**
 * /readyz's optional OSINT check: does the DNS resolver the sources use answer? Every source needs it
 * (the profile sites' names, MX, PTR); when it does not, searches say "could not check" for everything.
 * The root's NS records are asked: any answer, even NXDOMAIN from a resolver that has no root, proves
 * the resolver is up; SERVFAIL, a refusal or silence does not.
 */
export function createResolverProbe(servers: readonly string[]): () => Promise<void> {
  let resolver: ReturnType<typeof createResolver> | undefined;
  return async () => {
    resolver ??= createResolver(servers, 2000);
    try {
      await resolver.resolveNs('.');
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return;
      throw new Error(`DNS resolver did not answer (${code ?? 'error'})`);
    }
  };
}
