import { consoleRoutes as c, MAX_JOB_PARAMS_BYTES } from '@portico/sdk/wire'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { guardConsoleRoutes } from './guard.ts'
import type { FastifyRequest } from 'fastify'
import { badRequest, errorBodySchema, notFound } from '../errors.ts'
import { routePlugin } from '../http/route-plugin.ts'
import type { ServerLogLine } from '../http/recent-log.ts'
import { JOB_STATUS } from '../objects/names.ts'
import type { CloudLogLine } from '../cloud/logs.ts'
import { ANY_OWNER } from '../objects/access.ts'
import type { WireObject } from '../objects/rows.ts'
import { consoleAccess, type ConsoleNeed } from '../auth/team.ts'
import { consoleErrors, tags } from './schemas.ts'
import type { CloudCode } from '../cloud/code.ts'
import type { ConsoleNeeds } from './needs.ts'

/** The services these routes use. */
export type ConsoleCloudNeeds = ConsoleNeeds & { cloud: CloudCode }

// The console's cloud code: what CLOUD_CODE defined (functions, triggers, jobs), starting a
// job, its runs with their log, and the Logs section: cloud code's logger lines with the
// server's own recent warnings and errors, newest first. Access is decided before the input is
// validated, so a visitor hears 401 and a viewer 403 whatever they sent.

const errors = { 400: errorBodySchema, ...consoleErrors } as const

export const consoleCloudRoutes = routePlugin(
  'portico-console-cloud',
  ['portico-current-user'],
  async function consoleCloudRoutes(fastify, services: ConsoleCloudNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    guardConsoleRoutes(app, services.config.app)
    const requireConsole = consoleAccess(services.config.app)
    /** Decides access before the input is validated. */
    const access = (need: ConsoleNeed) => async (request: FastifyRequest) => {
      await requireConsole(request, need)
    }

    app.get(
      '/api/admin/cloud',
      {
        preValidation: access('read'),
        schema: {
          tags,
          summary: "The site's cloud code (CLOUD_CODE): its functions, triggers and jobs",
          response: { 200: c['GET /api/admin/cloud'].answer, ...consoleErrors },
        },
      },
      async () => {
        const { cloud } = services
        return {
          configured: services.config.cloudCode !== undefined,
          functions: [...cloud.registry.functions.keys()].sort(),
          triggers: cloud.registry.triggerNames(),
          jobs: cloud.jobs.names(),
        }
      },
    )

    app.post(
      '/api/admin/cloud/jobs/:name',
      {
        preValidation: access('write'),
        schema: {
          tags,
          summary:
            'Start a run of a cloud code job; answers its id at once (it runs in the background)',
          params: c['POST /api/admin/cloud/jobs/:name'].params,
          body: c['POST /api/admin/cloud/jobs/:name'].body,
          response: {
            202: c['POST /api/admin/cloud/jobs/:name'].answer,
            ...errors,
            404: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'write')
        const { name } = request.params
        const params = (request.body?.params ?? {}) as Record<string, unknown>
        if (Buffer.byteLength(JSON.stringify(params)) > MAX_JOB_PARAMS_BYTES)
          throw badRequest(`A job's params are at most ${MAX_JOB_PARAMS_BYTES / 1024} KB of JSON.`)
        if (!services.cloud.jobs.names().includes(name))
          throw notFound(`Cloud code defines no job "${name}".`)
        const id = await services.cloud.jobs.start(name, params, 'console')
        await services.audit.record({
          actor: user.address,
          action: 'job.start',
          target: `${name} ${id}`,
          before: null,
          after: { params },
        })
        return reply.code(202).send({ id })
      },
    )

    app.get(
      '/api/admin/cloud/runs',
      {
        preValidation: access('read'),
        schema: {
          tags,
          summary: "Cloud code jobs' runs, newest first, with status, times, message and log",
          querystring: c['GET /api/admin/cloud/runs'].querystring,
          response: { 200: c['GET /api/admin/cloud/runs'].answer, ...errors },
        },
      },
      async (request) => {
        const limit = Math.min(100, Number(request.query.limit ?? 20))
        const skip = Number(request.query.skip ?? 0)
        if (limit < 1) throw badRequest('limit is at least 1.')
        // One more than the page, to know whether older runs follow.
        const { results } = await services.objects.query(ANY_OWNER, JOB_STATUS, {
          order: '-createdAt',
          limit: limit + 1,
          skip,
        })
        return { results: results.slice(0, limit).map(runOf), hasMore: results.length > limit }
      },
    )

    app.get(
      '/api/admin/logs',
      {
        preValidation: access('read'),
        schema: {
          tags,
          summary:
            "Recent log lines, newest first: cloud code's logger and the server's warnings and errors (this process's)",
          querystring: c['GET /api/admin/logs'].querystring,
          response: {
            200: c['GET /api/admin/logs'].answer,
            ...errors,
          },
        },
      },
      async (request) => {
        const { level, text } = request.query
        const limit = Math.min(500, Number(request.query.limit ?? 200))
        if (limit < 1) throw badRequest('limit is at least 1.')
        const filter = { level, text: text || undefined, limit }
        const lines = [
          ...services.cloud.logs.recent(filter).map((line) => lineOf(line, 'cloud')),
          ...fastify.recentLog.recent(filter).map((line) => lineOf(line, 'server')),
        ]
        lines.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0))
        return { results: lines.slice(0, limit) }
      },
    )
  },
)

function lineOf(line: CloudLogLine | ServerLogLine, source: 'cloud' | 'server') {
  const jobId = 'jobId' in line ? line.jobId : undefined
  return {
    time: line.time,
    level: line.level,
    source,
    message: line.message,
    ...(line.requestId ? { requestId: line.requestId } : {}),
    ...(jobId ? { jobId } : {}),
  }
}

/** A `_JobStatus` object as the console shows a run. */
function runOf(object: WireObject) {
  const data = object.data as Record<string, unknown>
  const iso = (value: unknown) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { iso?: unknown }).iso === 'string'
      ? (value as { iso: string }).iso
      : null
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  const log = Array.isArray(data.log) ? (data.log as Record<string, unknown>[]) : []
  return {
    id: object.objectId,
    jobName: text(data.jobName),
    source: data.source === 'api' ? ('api' as const) : ('console' as const),
    status: (data.status === 'succeeded' || data.status === 'failed' ? data.status : 'running') as
      'running' | 'succeeded' | 'failed',
    message: text(data.message),
    params:
      typeof data.params === 'object' && data.params !== null && !Array.isArray(data.params)
        ? (data.params as Record<string, unknown>)
        : {},
    startedAt: iso(data.startedAt),
    finishedAt: iso(data.finishedAt),
    log: log.map((line) => ({
      time: text(line.time),
      level: (line.level === 'warn' || line.level === 'error' ? line.level : 'info') as
        'info' | 'warn' | 'error',
      message: text(line.message),
    })),
  }
}
