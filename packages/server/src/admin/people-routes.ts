import { consoleRoutes as c } from '@portico/sdk/wire'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'

import { errorBodySchema } from '../errors.ts'
import { badRequest, notFound } from '../errors.ts'
import { consoleAccess } from '../auth/team.ts'
import { guardConsoleRoutes } from './guard.ts'
import type { DeclaredFields } from './declared-fields.ts'
import type { People } from './people.ts'
import { consoleErrors, paging, tags, withIsoDates } from './schemas.ts'
import { effectiveSettings } from './settings.ts'
import { routePlugin } from '../http/route-plugin.ts'
import type { ApiKeyVerifier } from '../rpc/api-keys.ts'
import type { Sessions } from '../auth/sessions.ts'
import type { ConsoleNeeds } from './needs.ts'

/** The services these routes use. */
export type ConsolePeopleNeeds = ConsoleNeeds & {
  declaredFields: DeclaredFields
  apiKeys: ApiKeyVerifier
  sessions: Sessions
  people: People
}

// The console's routes about people and the server: who is signed in, sessions, API keys,
// settings and the audit log. Objects, files and imports are in data-routes.ts.

const errors = consoleErrors

export const consolePeopleRoutes = routePlugin(
  'portico-console-people',
  ['portico-current-user'],
  async function consolePeopleRoutes(fastify, services: ConsolePeopleNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    const requireConsole = consoleAccess(services.config.app)
    guardConsoleRoutes(app, services.config.app)

    app.get(
      '/api/admin/me',
      {
        schema: {
          tags,
          summary: 'Your console role (admin or viewer)',
          response: { 200: c['GET /api/admin/me'].answer, ...errors },
        },
      },
      async (request) => {
        const { user, role, session } = await requireConsole(request, 'read')
        return { address: user.address, role, signedInAt: session.createdAt.toISOString() }
      },
    )

    app.get(
      '/api/admin/overview',
      {
        schema: {
          tags,
          summary: 'Counts: users, sessions, objects by class, files, events today',
          response: { 200: c['GET /api/admin/overview'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        const now = new Date()
        const [[userCount], [sessionCount], counted, declared, [fileTotals], [eventsToday]] =
          await Promise.all([
            services.people.count(),
            services.people.activeSessionCount(now),
            services.objects.countByClass(),
            services.declaredFields.classNames(),
            services.people.fileTotals(),
            services.people.eventsToday(),
          ])
        // A class made in the console is listed before it holds an object.
        const classes = [
          ...counted,
          ...declared
            .filter((name) => !counted.some((c) => c.className === name))
            .map((className) => ({ className, count: 0 })),
        ]
        return {
          users: userCount!.n,
          activeSessions: sessionCount!.n,
          classes,
          files: { count: fileTotals!.n, bytes: Number(fileTotals!.bytes) },
          eventsToday: eventsToday!.n,
        }
      },
    )

    app.get(
      '/api/admin/users',
      {
        schema: {
          tags,
          summary: 'Users, newest sign-in first; search by address',
          querystring: c['GET /api/admin/users'].querystring,
          response: { 200: c['GET /api/admin/users'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        const search = request.query.search?.trim()
        const rows = await services.people.list(search, paging(request.query))
        return { results: rows.map(withIsoDates) }
      },
    )

    app.get(
      '/api/admin/users/:userId/sessions',
      {
        schema: {
          tags,
          summary: "A user's sessions: device, last use, state",
          params: c['GET /api/admin/users/:userId/sessions'].params,
          response: { 200: c['GET /api/admin/users/:userId/sessions'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        const rows = await services.people.sessionsOf(request.params.userId)
        return { results: rows.map(withIsoDates) }
      },
    )

    app.post(
      '/api/admin/sessions/:sessionId/revoke',
      {
        schema: {
          tags,
          summary: 'Revoke one session (its next request is refused)',
          params: c['POST /api/admin/sessions/:sessionId/revoke'].params,
          response: {
            200: c['POST /api/admin/sessions/:sessionId/revoke'].answer,
            404: errorBodySchema,
            ...errors,
          },
        },
      },
      async (request) => {
        const { user } = await requireConsole(request, 'destructive')
        const revoked = await services.people.revokeSession(request.params.sessionId, user.address)
        if (!revoked) throw notFound('No such active session.')
        await services.sessions.forget({ sessionIds: [request.params.sessionId] })
        return { revoked: 1 }
      },
    )

    app.post(
      '/api/admin/users/:userId/revoke-sessions',
      {
        schema: {
          tags,
          summary: "Revoke all of a user's sessions",
          params: c['POST /api/admin/users/:userId/revoke-sessions'].params,
          response: { 200: c['POST /api/admin/users/:userId/revoke-sessions'].answer, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireConsole(request, 'destructive')
        const revoked = await services.people.revokeSessionsOf(request.params.userId, user.address)
        if (revoked) await services.sessions.forget({ userId: request.params.userId })
        return { revoked }
      },
    )

    app.get(
      '/api/admin/api-keys',
      {
        schema: {
          tags,
          summary: 'Gateway API keys with their last use (never the keys)',
          response: { 200: c['GET /api/admin/api-keys'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        return { results: (await services.people.listApiKeys()).map(withIsoDates) }
      },
    )

    app.post(
      '/api/admin/api-keys',
      {
        schema: {
          tags,
          summary: 'Create a gateway API key: the answer is the only time the key is shown',
          body: c['POST /api/admin/api-keys'].body,
          response: { 201: c['POST /api/admin/api-keys'].answer, 400: errorBodySchema, ...errors },
        },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'write')
        if (!request.body.label.trim())
          throw badRequest('Give the key a label: who or what uses it.')
        const created = await services.people.createApiKey(request.body.label)
        await services.audit.record({
          actor: user.address,
          action: 'api_key.create',
          target: `api_key/${created.id}`,
          after: { label: created.label },
        })
        return reply.status(201).send(created)
      },
    )

    app.post(
      '/api/admin/api-keys/:keyId/revoke',
      {
        schema: {
          tags,
          summary: 'Revoke a gateway API key (refused by every process within 30 s)',
          params: c['POST /api/admin/api-keys/:keyId/revoke'].params,
          response: {
            200: c['POST /api/admin/api-keys/:keyId/revoke'].answer,
            404: errorBodySchema,
            ...errors,
          },
        },
      },
      async (request) => {
        const { user } = await requireConsole(request, 'destructive')
        if (!(await services.people.revokeApiKey(request.params.keyId)))
          throw notFound('No such active API key.')
        services.apiKeys.forget(request.params.keyId)
        await services.audit.record({
          actor: user.address,
          action: 'api_key.revoke',
          target: `api_key/${request.params.keyId}`,
          before: { revoked: false },
          after: { revoked: true },
        })
        return { revoked: true }
      },
    )

    app.get(
      '/api/admin/settings',
      {
        schema: {
          tags,
          summary: 'The effective configuration, secrets masked, with where each value came from',
          response: { 200: c['GET /api/admin/settings'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        return { results: effectiveSettings(services.config) }
      },
    )

    app.get(
      '/api/admin/audit',
      {
        schema: {
          tags,
          summary: 'The audit log of console changes, newest first',
          querystring: c['GET /api/admin/audit'].querystring,
          response: { 200: c['GET /api/admin/audit'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        const before = request.query.before === undefined ? undefined : Number(request.query.before)
        return {
          results: await services.audit.list({ limit: paging(request.query).limit, before }),
        }
      },
    )
  },
)
