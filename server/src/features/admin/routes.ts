import {
  ADMIN_TEXTS,
  AuditListResponse,
  AuditQuery,
  UserCreateBody,
  UserDeleteResponse,
  UserIdParams,
  UserListResponse,
  UserResponse,
  UserUpdateBody,
} from '@guildhall/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureContext } from '../../platform/feature.ts';
import { presentUser } from '../users/index.ts';
import { type Actor, createUser, listAudit, listUsers, removeUser, updateUser } from './service.ts';

const admin = { access: 'admin' } as const;

/** The admin user API (portal-core §7) and the audit trail; the read routes of the core are in users/. */
export function adminRoutes(deps: FeatureContext): FastifyPluginAsyncZod {
  const { db } = deps;
  return async (app) => {
    app.get('/api/users', { config: admin, schema: { response: { 200: UserListResponse } } }, async () => {
      const rows = await listUsers(db);
      return { success: true as const, data: rows.map((row) => presentUser(row)) };
    });

    app.post(
      '/api/users',
      { config: admin, schema: { body: UserCreateBody, response: { 201: UserResponse } } },
      async (req, reply) => {
        const row = await createUser(db, actorOf(req), req.body);
        return reply.code(201).send({ success: true as const, data: presentUser(row) });
      },
    );

    app.put(
      '/api/users/:id',
      {
        config: admin,
        schema: { params: UserIdParams, body: UserUpdateBody, response: { 200: UserResponse } },
      },
      async (req) => {
        const row = await updateUser(db, actorOf(req), req.params.id, req.body);
        // An unapproved user's open sockets end now, not at the next periodic re-check; a new level reaches
        // their open tabs at once too (they re-read their account and rejoin their rooms at that level).
        if (row.is_approved !== 1) app.realtime.disconnectUser(row.discord_id);
        else if (req.body.access_level !== undefined) app.realtime.accessChanged(row.discord_id);
        return { success: true as const, data: presentUser(row) };
      },
    );

    app.delete(
      '/api/users/:id',
      { config: admin, schema: { params: UserIdParams, response: { 200: UserDeleteResponse } } },
      async (req) => {
        const { removed, sessionsEnded } = await removeUser(db, actorOf(req), req.params.id);
        app.realtime.disconnectUser(removed.discord_id);
        return {
          success: true as const,
          message: ADMIN_TEXTS.userRemoved,
          data: { discord_id: removed.discord_id, sessions_ended: sessionsEnded },
        };
      },
    );

    app.get(
      '/api/admin/audit',
      { config: admin, schema: { querystring: AuditQuery, response: { 200: AuditListResponse } } },
      async (req) => ({
        success: true as const,
        data: await listAudit(db, req.query.limit),
      }),
    );
  };
}

function actorOf(req: FastifyRequest): Actor {
  const user = req.auth!.user;
  return { kind: 'user', id: user.discord_id, username: user.username };
}
