import { getBackendClient } from '../backend/backend.ts'
import type { EventSender } from './tracker.ts'

// Loaded on the first idle moment after an event is queued, not with the first paint.

/** Sends one event as `{ subdomain, event, options }` (spec §7), the host as subdomain. */
export const sendEvent: EventSender = (event, options) =>
  getBackendClient().request('POST', '/api/events', {
    body: { subdomain: window.location.hostname, event, options },
  })
