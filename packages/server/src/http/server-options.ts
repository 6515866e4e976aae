import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import type { FastifyServerOptions } from 'fastify'
import type { ServerConfig } from '../config/server.ts'
import { requestIdGenerator } from './request-id.ts'

/** Largest JSON body any route accepts (routes may lower it; the mount raises it for files). */
export const BODY_LIMIT = 1024 * 1024

/**
 * Which proxies may name the client's address (TRUST_PROXY), as Fastify's option and as the
 * function that reads a raw request's address the same way (sockets, the RPC lean path).
 */
export function proxyTrust(trustProxy: ServerConfig['trustProxy']) {
  const trust =
    typeof trustProxy === 'number'
      ? (_address: string, hop: number) => hop < trustProxy
      : trustProxy
  const trusted = typeof trust === 'function' ? trust : proxyAddr.compile(trust || [])
  return {
    option: trust,
    clientAddress: (request: IncomingMessage) => proxyAddr(request, trusted),
  }
}

/** Fastify's options for Portico: time-outs, strict JSON, request ids, logging. */
export function serverOptions(
  config: ServerConfig,
  logger: boolean | object | undefined,
): FastifyServerOptions {
  return {
    logger: logger ?? { level: config.logLevel },
    bodyLimit: BODY_LIMIT,
    requestTimeout: config.timeouts.requestMs,
    connectionTimeout: config.timeouts.idleMs,
    keepAliveTimeout: config.timeouts.idleMs,
    // Off unless TRUST_PROXY names the proxies: otherwise anyone could claim any address.
    trustProxy: proxyTrust(config.trustProxy).option,
    // One id per request in every log line and in the answer; a trusted proxy's own id is kept.
    genReqId: requestIdGenerator(config.trustProxy),
    // Strict JSON: reject prototype-poisoning keys instead of silently stripping them.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  }
}
