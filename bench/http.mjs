// Load-generator plumbing shared by the server benchmarks: one request over a keep-alive agent.
import http from 'node:http'

/**
 * One HTTP request on `agent`; resolves with the status code once the body is drained,
 * rejects on network errors.
 * @param {string} url
 * @param {{ agent: http.Agent, method?: string, headers?: Record<string, string>, body?: string }} options
 * @returns {Promise<number>}
 */
export function send(url, { agent, method = 'GET', headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        agent,
        headers: {
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          ...headers,
        },
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}
