import type { FastifyRequest } from 'fastify';
import type { FilesFeatureConfig } from '../config.ts';

/** A Host header as RFC 9110 allows it: a name or address and an optional port, nothing else. */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/**
 * The origin share links are built on: PUBLIC_URL when set. Without it, the request's own Host header
 * (what the browser typed), never X-Forwarded-Host: with TRUST_PROXY set, Fastify's `req.host` would
 * believe that header, and anyone able to send it could make the portal hand out links to their host.
 */
export function shareBaseUrl(config: Pick<FilesFeatureConfig, 'publicUrl'>, req: FastifyRequest): string {
  if (config.publicUrl) return config.publicUrl;
  const host = req.headers.host;
  const safeHost = typeof host === 'string' && HOST_HEADER.test(host) ? host : 'localhost';
  return `${req.protocol}://${safeHost}`;
}

/** The startup warning for a proxied portal that builds share links from request headers. */
export function publicUrlWarning(
  config: Pick<FilesFeatureConfig, 'publicUrl' | 'trustProxy'>,
): string | null {
  if (config.publicUrl || config.trustProxy === false) return null;
  return "TRUST_PROXY is set but PUBLIC_URL is not: share links are built from each request's Host header; set PUBLIC_URL to your portal's public origin";
}
