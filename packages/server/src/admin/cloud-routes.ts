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
import { recordAudit } from './audit.ts'
import { consoleErrors, digits, tags } from './schemas.ts'
import type { CloudCode } from '../cloud/code.ts'
import type { ConsoleNeeds } from './needs.ts'

/** The services these routes use. */
export type ConsoleCloudNeeds = ConsoleNeeds & { cloud: CloudCode }

// The console's cloud code: what CLOUD_CODE defined (functions, triggers, jobs), starting a
// job, its runs with their log, and the Logs section: cloud code's logger lines with the
// server's own recent warnings and errors, newest first. Access is decided before the input is
// validated, so a visitor hears 401 and a viewer 403 whatever they sent.

/** Largest params a job is started with, as JSON. */
export const MAX_JOB_PARAMS_BYTES = 64 * 1024

const errors = { 400: errorBodySchema, ...consoleErrors } as const
const isoOrNull = { type: ['string', 'null'] } as const

const cloudAnswer = {
  type: 'object',
  properties: {
    configured: { type: 'boolean', description: 'Whether CLOUD_CODE names cloud code to load' },
    functions: { type: 'array', items: { type: 'string' } },
    triggers: {
      type: 'array',
      items: { type: 'string' },
      description: 'Each trigger as "<kind> <class>", e.g. "beforeSave Note"',
    },
    jobs: { type: 'array', items: { type: 'string' } },
  },
  required: ['configured', 'functions', 'triggers', 'jobs'],
  additionalProperties: false,
} as const

const logLineSchema = {
  type: 'object',
  properties: {
    time: { type: 'string' },
    level: { type: 'string', enum: ['info', 'warn', 'error'] },
    message: { type: 'string' },
  },
  required: ['time', 'level', 'message'],
  additionalProperties: false,
} as const

const runSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    jobName: { type: 'string' },
    source: { type: 'string', enum: ['api', 'console'] },
    status: { type: 'string', enum: ['running', 'succeeded', 'failed'] },
    message: { type: 'string' },
    params: { type: 'object', additionalProperties: true },
    startedAt: isoOrNull,
    finishedAt: isoOrNull,
    log: { type: 'array', items: logLineSchema },
  },
  required: [
    'id',
    'jobName',
    'source',
    'status',
    'message',
    'params',
    'startedAt',
    'finishedAt',
    'log',
  ],
  additionalProperties: false,
} as const

const runsAnswer = {
  type: 'object',
  properties: {
    results: { type: 'array', items: runSchema },
    hasMore: { type: 'boolean', description: 'Whether older runs follow this page' },
  },
  required: ['results', 'hasMore'],
  additionalProperties: false,
} as const

const consoleLogLine = {
  type: 'object',
  properties: {
    time: { type: 'string' },
    level: { type: 'string', enum: ['info', 'warn', 'error'] },
    source: {
      type: 'string',
      enum: ['cloud', 'server'],
      description: "cloud: cloud code's logger; server: the server's own warnings and errors",
    },
    message: { type: 'string' },
    requestId: { type: 'string' },
    jobId: { type: 'string' },
  },
  required: ['time', 'level', 'source', 'message'],
  additionalProperties: false,
} as const

const jobParams = {
  type: 'object',
  properties: { name: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' } },
  required: ['name'],
  additionalProperties: false,
} as const

const startBody = {
  type: 'object',
  properties: {
    params: {
      type: 'object',
      additionalProperties: true,
      description: `What the job's request.params holds (a JSON object, at most ${MAX_JOB_PARAMS_BYTES / 1024} KB)`,
    },
  },
  additionalProperties: false,
} as const

const runsQuery = {
  type: 'object',
  properties: { limit: digits, skip: digits },
  additionalProperties: false,
} as const

const logsQuery = {
  type: 'object',
  properties: {
    level: { type: 'string', enum: ['info', 'warn', 'error'], description: 'This level or above' },
    text: { type: 'string', maxLength: 200, description: 'Lines containing this (any case)' },
    limit: digits,
  },
  additionalProperties: false,
} as const

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
          response: { 200: cloudAnswer, ...consoleErrors },
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
          params: jobParams,
          body: startBody,
          response: {
            202: {
              type: 'object',
              properties: { id: { type: 'string' } },
              required: ['id'],
              additionalProperties: false,
            },
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
        await recordAudit(services.db, {
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
          querystring: runsQuery,
          response: { 200: runsAnswer, ...errors },
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
          querystring: logsQuery,
          response: {
            200: {
              type: 'object',
              properties: { results: { type: 'array', items: consoleLogLine } },
              required: ['results'],
              additionalProperties: false,
            },
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
