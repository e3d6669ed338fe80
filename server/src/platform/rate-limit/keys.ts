import type { FastifyRequest } from 'fastify';
import { clientAddressKey } from '../client-address.ts';

/**
 * The one key strategy for per-member request limits (`config.rateLimit.keyGenerator`): the signed-in
 * member's id, so members behind one NAT never starve each other, else the client's address as the
 * global limit counts it (an IPv6 /64 as one). Counts stay per route: the store prefixes each key with
 * the route's method and URL.
 */
export function perMemberKey(req: FastifyRequest): string {
  return req.auth ? `user:${req.auth.user.discord_id}` : `ip:${clientAddressKey(req.ip)}`;
}
